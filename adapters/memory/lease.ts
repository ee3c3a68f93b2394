/**
 * The memory store's writer lease (lib/indexer/lease.ts): in-process, one per store object —
 * two indexers over one memory store in the same process take turns like two processes over
 * one database. Never lost: it lives as long as the process.
 */
import type { HeldLease, LeaseAttempt, LeaseHolder, StoreLease } from '../../lib/indexer/lease.ts';

const holders = new WeakMap<object, LeaseHolder>();

export function createMemoryLease(store: object): StoreLease {
  return {
    tryAcquire(): Promise<LeaseAttempt> {
      const current = holders.get(store);
      if (current !== undefined) return Promise.resolve({ acquired: false, holder: current });
      const holder: LeaseHolder = { host: 'this process', pid: globalThis.process?.pid ?? 0, since: new Date().toISOString() };
      holders.set(store, holder);
      let released = false;
      const lease: HeldLease = {
        holder,
        lost: new AbortController().signal,
        release: () => {
          if (!released && holders.get(store) === holder) holders.delete(store);
          released = true;
          return Promise.resolve();
        },
      };
      return Promise.resolve({ acquired: true, lease });
    },
  };
}
