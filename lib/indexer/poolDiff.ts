/**
 * The pending pool's diff, pure: what the store holds as pending against what the node's pool
 * holds now — which transactions are new, which were replaced (another transaction of the same
 * sender and nonce is in the pool) and which are gone (no longer in the pool: evicted, dropped,
 * or mined under another hash). A mined transaction leaves the store with its block; a read of
 * the pool that was cut at its limit says nothing about what it left out, so nothing is gone.
 */
import type { Address, Hash } from '../domain/records.ts';

/** what the diff needs of a transaction: its hash, sender and nonce */
export interface PoolEntry {
  readonly hash: Hash;
  readonly from: Address;
  readonly nonce: number;
}

export interface PoolDiff<T extends PoolEntry> {
  /** in the pool, not stored: to write (the first of each hash, in pool order) */
  readonly added: readonly T[];
  /** stored, not in the pool, and another transaction of its sender and nonce is: to drop */
  readonly replaced: readonly Hash[];
  /** stored, not in the pool, and nothing replaced it there: to drop (none when the read was truncated) */
  readonly gone: readonly Hash[];
}

const key = (e: PoolEntry): string => `${e.from.toLowerCase()}:${e.nonce}`;
const hashKey = (h: string): string => h.toLowerCase();

export function diffPool<T extends PoolEntry>(stored: readonly PoolEntry[], pool: readonly T[], truncated: boolean): PoolDiff<T> {
  const storedHashes = new Set(stored.map((e) => hashKey(e.hash)));
  const poolHashes = new Set<string>();
  const poolSlots = new Set<string>();
  const added: T[] = [];
  for (const tx of pool) {
    const h = hashKey(tx.hash);
    if (poolHashes.has(h)) continue;
    poolHashes.add(h);
    poolSlots.add(key(tx));
    if (!storedHashes.has(h)) added.push(tx);
  }
  const replaced: Hash[] = [];
  const gone: Hash[] = [];
  const seen = new Set<string>();
  for (const e of stored) {
    const h = hashKey(e.hash);
    if (poolHashes.has(h) || seen.has(h)) continue;
    seen.add(h);
    if (poolSlots.has(key(e))) replaced.push(e.hash);
    else if (!truncated) gone.push(e.hash);
  }
  return { added, replaced, gone };
}
