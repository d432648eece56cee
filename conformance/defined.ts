/** The entries whose value is not undefined (for `exactOptionalPropertyTypes`-safe spreading). */
export function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
