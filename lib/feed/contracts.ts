/**
 * A contract store's in-process feed: `emit` delivers a change to every listener synchronously
 * (after the write's commit); the last `keep` changes are kept for `since` (older versions
 * answer null). The memory contract store's whole feed, and the SQL one's for this process's
 * own writes (adapters/sql/contractFeed.ts adds the other processes').
 */
import type { ContractChange, ContractChangeListener, ContractFeed } from '../ports/contractStore.ts';

export function createLocalContractFeed(keep = 1000): ContractFeed & { emit(change: ContractChange): void } {
  const listeners = new Set<ContractChangeListener>();
  const log: ContractChange[] = [];
  let first = 0; // versions up to this are not all in the log
  return {
    emit(change) {
      log.push(change);
      if (log.length > keep) first = (log.shift() as ContractChange).version;
      for (const l of [...listeners]) {
        try {
          l(change);
        } catch {
          // a listener's failure is its own
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async since(version) {
      if (version < first) return null;
      return log.filter((c) => c.version > version);
    },
  };
}
