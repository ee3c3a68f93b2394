/**
 * A contract store's in-process feed: `emit` delivers a change to every listener synchronously
 * (after the write's commit); the last `keep` changes are kept for `since` (older versions
 * answer null). The memory contract store's whole feed, and the SQL one's for this process's
 * own writes (adapters/sql/contractFeed.ts adds the other processes').
 */
import type { ContractChange, ContractFeed } from '../ports/contractStore.ts';
import { createLocalVersionedFeed } from './local.ts';

export function createLocalContractFeed(keep = 1000): ContractFeed & { emit(change: ContractChange): void } {
  return createLocalVersionedFeed<ContractChange>(keep);
}
