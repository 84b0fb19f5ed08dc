// A bounded least-recently-used cache (Map insertion order = recency), limited by entries and by bytes.
export class LruCache<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private totalBytes = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {
    if (!(maxEntries >= 1) || !(maxBytes >= 1)) throw new Error("cache limits must be at least 1");
  }

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  set(key: string, value: V, bytes: number): void {
    const old = this.map.get(key);
    if (old) {
      this.totalBytes -= old.bytes;
      this.map.delete(key);
    }
    if (bytes > this.maxBytes) return; // larger than the whole budget: not kept
    this.map.set(key, { value, bytes });
    this.totalBytes += bytes;
    for (const [k, e] of this.map) {
      if (this.map.size <= this.maxEntries && this.totalBytes <= this.maxBytes) break;
      this.map.delete(k);
      this.totalBytes -= e.bytes;
    }
  }
}
