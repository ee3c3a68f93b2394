/**
 * The change feed: what each committed write changed, for live updates (SSE, the socket) and
 * for caches that must see another process's write at once.
 *
 * A writer emits one Change per call that changed anything, after its commit, in version order.
 * Across processes only a ChangeNotice travels (the version, the block range, a rollback
 * marker, pending hashes added and dropped): a listener derives the rest through the DataSource ports
 * (./describe.ts), and catches up after a reconnect from the last version it saw (`since`).
 */
import type { Address, BlockBundle, Hash } from '../domain/records.ts';
import type { Change, ChangeFeed, ChangeListener, ChangeNotice } from '../ports/feed.ts';
import { createLocalVersionedFeed } from './local.ts';

export type { Change, ChangeFeed, ChangeListener, ChangeNotice } from '../ports/feed.ts';

const lower = (a: string): Address => a.toLowerCase() as Address;

/** The Change of writing these (newly stored) bundles: pure, from the records themselves. */
export function changeOfBundles(
  version: number,
  bundles: readonly BlockBundle[],
  rolledBackTo: number | null,
  pendingDropped: readonly Hash[] = [],
): Change {
  const consensus = bundles.filter((b) => b.block.consensus);
  const numbers = consensus.map((b) => b.block.number);
  const transactions: Hash[] = [];
  const addresses = new Set<Address>();
  const tokens = new Set<Address>();
  for (const b of [...consensus].sort((x, y) => x.block.number - y.block.number)) {
    for (const tx of b.transactions) {
      transactions.push(tx.hash);
      addresses.add(lower(tx.from));
      if (tx.to !== null) addresses.add(lower(tx.to));
      if (tx.createdContract !== null) addresses.add(lower(tx.createdContract));
    }
    for (const tt of b.tokenTransfers) {
      addresses.add(lower(tt.from));
      addresses.add(lower(tt.to));
      tokens.add(lower(tt.tokenAddress));
    }
  }
  return {
    version,
    blocks: numbers.length === 0 ? null : { from: Math.min(...numbers), to: Math.max(...numbers) },
    rolledBackTo,
    pendingAdded: [],
    transactions,
    addresses: [...addresses],
    tokens: [...tokens],
    pendingDropped,
  };
}

/** A Change that only removed blocks. */
export const rollbackChange = (version: number, height: number): Change => ({
  version,
  blocks: null,
  rolledBackTo: height,
  pendingAdded: [],
  transactions: [],
  addresses: [],
  tokens: [],
  pendingDropped: [],
});

/** a pending transaction's hash and parties */
export interface PendingParties {
  readonly hash: Hash;
  readonly from: Address;
  readonly to: Address | null;
}

/** A Change that only added pending transactions, or dropped them from the pool (replaced or gone: not mined). */
export const pendingChange = (version: number, added: readonly PendingParties[], dropped: readonly PendingParties[] = []): Change => ({
  version,
  blocks: null,
  rolledBackTo: null,
  pendingAdded: added.map((t) => t.hash),
  transactions: [],
  addresses: [...new Set([...added, ...dropped].flatMap((t) => (t.to === null ? [lower(t.from)] : [lower(t.from), lower(t.to)])))],
  tokens: [],
  pendingDropped: dropped.map((t) => t.hash),
  droppedParties: [...new Set(dropped.flatMap((t) => (t.to === null ? [lower(t.from)] : [lower(t.from), lower(t.to)])))],
});

/** The notice of a change (what crosses processes). */
export const noticeOf = (c: ChangeNotice): ChangeNotice => ({
  version: c.version,
  blocks: c.blocks,
  rolledBackTo: c.rolledBackTo,
  pendingAdded: c.pendingAdded,
  pendingDropped: c.pendingDropped,
  ...(c.droppedParties === undefined || c.droppedParties.length === 0 ? {} : { droppedParties: c.droppedParties }),
});

/**
 * An in-process feed: `emit` delivers to every listener synchronously; the last `keep` changes
 * are kept for `since` (older versions answer null).
 */
export function createLocalFeed(keep = 1000): ChangeFeed & { emit(change: Change): void } {
  return createLocalVersionedFeed<Change>(keep);
}
