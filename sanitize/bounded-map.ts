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
}
