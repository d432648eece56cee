/**
 * A Map that holds at most `limit` entries: adding one more to a full map empties it first. For
 * the memos beside the sanitizer (what a text names, what the suite's vocabulary holds, the log's
 * sanitized parts, a mock's kept reads): memory stays bounded whatever a target or a client
 * sends, and starting over costs only the recomputing.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #limit: number;

  constructor(limit: number) {
    super();
    this.#limit = limit;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.#limit && !this.has(key)) this.clear();
    return super.set(key, value);
  }

  /** The value kept under `key`; made by `make` and kept first when there is none (undefined is a value too). */
  getOrAdd(key: K, make: (key: K) => V): V {
    if (this.has(key)) return this.get(key) as V;
    const value = make(key);
    this.set(key, value);
    return value;
  }
}
