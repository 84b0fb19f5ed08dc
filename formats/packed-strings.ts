// A list of strings held as one string and its end offsets: one heap object where a string[] holds one per entry.
// The feed indexes name hundreds of thousands of events (FIRMS detections): as string[] each name and id is an object
// that every garbage collection of the server walks, on every request's time.
export class PackedStrings {
  readonly length: number;
  private readonly text: string;
  /** End of entry i in text (its start is the end of i - 1, or 0). */
  private readonly ends: Uint32Array;

  constructor(list: readonly string[]) {
    this.length = list.length;
    this.ends = new Uint32Array(list.length);
    let end = 0;
    for (let i = 0; i < list.length; i++) {
      end += list[i].length;
      this.ends[i] = end;
    }
    this.text = list.join("");
  }

  /** Entry i; a RangeError outside 0..length-1. */
  get(i: number): string {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`entry ${i} of ${this.length}`);
    return this.text.slice(i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  /** The first entry equal to s, or -1. */
  indexOf(s: string): number {
    for (let i = 0; i < this.length; i++) {
      const start = i === 0 ? 0 : this.ends[i - 1];
      if (this.ends[i] - start === s.length && this.text.startsWith(s, start)) return i;
    }
    return -1;
  }

  toArray(): string[] {
    return Array.from({ length: this.length }, (_, i) => this.get(i));
  }
}

/**
 * A string-keyed table of string pairs as three PackedStrings, keys sorted: a handful of heap objects for a table
 * of 100,000 entries (UN/LOCODE's places that are not ports), looked up by binary search.
 */
export class PackedPairs {
  readonly size: number;
  private readonly keys: PackedStrings;
  private readonly first: PackedStrings;
  private readonly second: PackedStrings;

  constructor(record: Readonly<Record<string, readonly [string, string]>>) {
    const keys = Object.keys(record).sort();
    this.size = keys.length;
    this.keys = new PackedStrings(keys);
    this.first = new PackedStrings(keys.map((k) => record[k][0]));
    this.second = new PackedStrings(keys.map((k) => record[k][1]));
  }

  get(key: string): [string, string] | undefined {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const k = this.keys.get(mid);
      if (k === key) return [this.first.get(mid), this.second.get(mid)];
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}
