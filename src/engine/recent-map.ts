/**
 * A map that holds at most `capacity` entries and drops the least recently used one first. Map
 * iteration order is insertion order, so re-inserting a key on each use keeps the oldest use first.
 * The caches of parsed listings, scaled screenshots, encoded bands and launcher activities share it.
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`RecentMap capacity must be at least 1, not ${capacity}`);
  }

  /** The value, counted as used now. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Keys, least recently used first; reading them counts as no use. */
  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  get size(): number {
    return this.entries.size;
  }
}
