/**
 * Keyed history tables: values that hold "as of a block" (balances, token metadata, addresses,
 * instances). The current value of a key is its latest entry by (blockNumber, write order).
 * Entries remember the block that brought them, so deleting a block deletes exactly its rows.
 */
import type { Hash } from '../../lib/domain/records.ts';

export interface Entry<V> {
  readonly value: V;
  readonly blockNumber: number;
  readonly blockHash: Hash;
  /** global write order; breaks blockNumber ties (a later write wins) */
  readonly seq: number;
}

function isLater<V>(a: Entry<V>, b: Entry<V>): boolean {
  return a.blockNumber > b.blockNumber || (a.blockNumber === b.blockNumber && a.seq > b.seq);
}

export class HistoryTable<V> {
  private readonly byKey = new Map<string, Entry<V>[]>();

  add(key: string, entry: Entry<V>): void {
    const list = this.byKey.get(key);
    if (list === undefined) this.byKey.set(key, [entry]);
    else list.push(entry);
  }

  /** Drop the entries `blockHash` brought for `key`; true when the key has no entry left. */
  removeBlock(key: string, blockHash: Hash): boolean {
    const list = this.byKey.get(key);
    if (list === undefined) return true;
    const kept = list.filter((e) => e.blockHash !== blockHash);
    if (kept.length === 0) {
      this.byKey.delete(key);
      return true;
    }
    this.byKey.set(key, kept);
    return false;
  }

  /** Every key with at least one entry. */
  keys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  latest(key: string): Entry<V> | undefined {
    const list = this.byKey.get(key);
    if (list === undefined) return undefined;
    let best = list[0];
    for (const e of list) if (isLater(e, best)) best = e;
    return best;
  }

  /** Every entry of `key`, in insertion order. */
  entries(key: string): readonly Entry<V>[] {
    return this.byKey.get(key) ?? [];
  }

  current(key: string): V | undefined {
    return this.latest(key)?.value;
  }
}

/** A one-to-many index of string keys (e.g. holder → balance keys). */
export class KeyIndex {
  private readonly map = new Map<string, Set<string>>();

  add(key: string, member: string): void {
    const set = this.map.get(key);
    if (set === undefined) this.map.set(key, new Set([member]));
    else set.add(member);
  }

  remove(key: string, member: string): void {
    const set = this.map.get(key);
    if (set === undefined) return;
    set.delete(member);
    if (set.size === 0) this.map.delete(key);
  }

  get(key: string): ReadonlySet<string> {
    return this.map.get(key) ?? EMPTY;
  }
}

const EMPTY: ReadonlySet<string> = new Set<string>();
