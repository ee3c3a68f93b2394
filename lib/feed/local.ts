/**
 * An in-process feed of versioned changes: `emit` delivers a change to every listener
 * synchronously (after the write's commit); the last `keep` changes are kept for `since`
 * (older versions answer null). The chain's feed (./change.ts) and the contract store's
 * (./contracts.ts) are this over their change types.
 */

/** a feed of changes of type C, each with its version, and the emitter of this process's own */
export interface LocalFeed<C extends { readonly version: number }> {
  emit(change: C): void;
  subscribe(listener: (change: C) => void): () => void;
  since(version: number): Promise<readonly C[] | null>;
}

export function createLocalVersionedFeed<C extends { readonly version: number }>(keep = 1000): LocalFeed<C> {
  const listeners = new Set<(change: C) => void>();
  const log: C[] = [];
  let first = 0; // versions up to this are not all in the log
  return {
    emit(change) {
      log.push(change);
      if (log.length > keep) first = (log.shift() as C).version;
      for (const l of [...listeners]) {
        try {
          l(change);
        } catch {
          // a listener's failure is its own: the others still get the change
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
