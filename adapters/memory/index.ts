/**
 * scoutkit/memory — the reference DataSource + DataSink over in-memory collections.
 *
 * It is the test oracle other adapters are held against: it follows lib/ports.ts literally.
 * Records handed in are copied and frozen; records handed out are frozen, so callers can never
 * change what the store holds.
 */
import type { ChainIdentity, DataSink, VersionedDataSource } from '../../lib/ports.ts';
import { createReader } from './queries.ts';
import { State } from './state.ts';
import { createWriter } from './store.ts';

export type MemoryStore = VersionedDataSource & DataSink;

export function createMemoryStore(): MemoryStore {
  const state = new State();
  // which chain the store holds (chain id, genesis hash): the indexer refuses another chain
  let identity: ChainIdentity | null = null;
  return {
    ...createReader(state),
    ...createWriter(state),
    getChainIdentity: async () => identity,
    setChainIdentity: async (next: ChainIdentity) => {
      identity = Object.freeze({ chainId: next.chainId, genesisHash: next.genesisHash });
    },
  };
}

export { InvalidWriteError } from './prepare.ts';
export { createMemoryLease } from './lease.ts';
