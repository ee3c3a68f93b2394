/**
 * scoutkit/memory — the reference DataSource + DataSink over in-memory collections.
 *
 * It is the test oracle other adapters are held against: it follows lib/ports.ts literally.
 * Records handed in are copied and frozen; records handed out are frozen, so callers can never
 * change what the store holds.
 */
import type { BlockBundle, Hash, TransactionRecord, UserOperationRecord } from '../../lib/domain/records.ts';
import type { ChangeFeed } from '../../lib/feed/change.ts';
import { changeOfBundles, createLocalFeed, pendingChange, rollbackChange } from '../../lib/feed/change.ts';
import type { ChainIdentity, DataSink, VersionedDataSource } from '../../lib/ports.ts';
import { createReader } from './queries.ts';
import { State } from './state.ts';
import { createWriter } from './store.ts';

export type MemoryStore = VersionedDataSource & DataSink & { readonly feed: ChangeFeed };

export function createMemoryStore(): MemoryStore {
  const state = new State();
  // which chain the store holds (chain id, genesis hash): the indexer refuses another chain
  let identity: ChainIdentity | null = null;
  const writer = createWriter(state);
  // every write that changed something is announced, synchronously after it applied
  const feed = createLocalFeed();
  return {
    ...createReader(state),
    ...writer,
    feed,
    async writeBlocks(bundles: readonly BlockBundle[]): Promise<void> {
      const before = state.version;
      const fresh = bundles.filter((b) => !state.blocks.has(b.block.hash));
      // a new consensus block at an occupied height replaces what is there: a reorg
      let replaced: number | null = null;
      for (const b of fresh) {
        if (!b.block.consensus) continue;
        if (state.blocksAt(b.block.number).some((e) => e.stored.block.consensus)) replaced = Math.min(replaced ?? b.block.number, b.block.number);
      }
      const mined: Hash[] = fresh.flatMap((b) => (b.block.consensus ? b.transactions.filter((t) => state.pending.has(t.hash)).map((t) => t.hash) : []));
      await writer.writeBlocks(bundles);
      if (state.version !== before) feed.emit(changeOfBundles(state.version, fresh, replaced === null ? null : replaced - 1, mined));
    },
    async writePendingTransactions(transactions: readonly TransactionRecord[]): Promise<void> {
      const before = state.version;
      const added = transactions.filter((t) => !state.pending.has(t.hash) && state.consensusBlockOf(t.hash) === undefined);
      await writer.writePendingTransactions(transactions);
      if (state.version !== before) feed.emit(pendingChange(state.version, [...new Map(added.map((t) => [t.hash, t])).values()]));
    },
    async dropPendingTransactions(hashes: readonly Hash[]): Promise<void> {
      const before = state.version;
      const dropped = [...new Set(hashes)].flatMap((h) => {
        const tx = state.pending.get(h);
        return tx === undefined ? [] : [tx];
      });
      await writer.dropPendingTransactions(hashes);
      if (state.version !== before) feed.emit(pendingChange(state.version, [], dropped));
    },
    async writeUserOperations(blockHash: Hash, operations: readonly UserOperationRecord[]): Promise<boolean> {
      const found = await writer.writeUserOperations(blockHash, operations);
      if (found) feed.emit(pendingChange(state.version, []));
      return found;
    },
    async rollbackAbove(height: number): Promise<void> {
      const before = state.version;
      await writer.rollbackAbove(height);
      if (state.version !== before) feed.emit(rollbackChange(state.version, height));
    },
    getChainIdentity: async () => identity,
    setChainIdentity: async (next: ChainIdentity) => {
      identity = Object.freeze({ chainId: next.chainId, genesisHash: next.genesisHash });
    },
  };
}

export { InvalidWriteError } from './prepare.ts';
export { createMemoryContractStore } from './contracts.ts';
export { createMemoryLease } from './lease.ts';
