/**
 * Which chain id `scoutkit serve` serves a store under: the one the store records (the indexer
 * writes it on its first run, lib/indexer/identity.ts), so that `/api/v2`, `/{chain_id}/api/v2`,
 * `eth_chainId`, the transactions' `chainId` and `/api/json/config` all name the chain the data
 * belongs to. A flag only overrides a store that records none; a flag that contradicts the
 * recorded id is an error (the data would be served as another chain's).
 */
import type { OpenedStore } from './stores.ts';

/**
 * The id of a store that records none and was given none: `1`, as `--default-chain` always
 * defaulted to. Such a store holds no indexed chain (or a hand-made one, as memory:fixture);
 * a restart after the first index run serves it under its own id.
 */
export const UNRECORDED_CHAIN_ID = '1';

export interface ServedChain {
  readonly id: string;
  /** whether the id is the store's own record */
  readonly recorded: boolean;
  /** the store holds no block (nothing indexed yet) */
  readonly empty: boolean;
}

export class ChainIdMismatchError extends Error {
  override readonly name = 'ChainIdMismatchError';
}

/** The start-up line about a store served under an id it does not record; undefined when it records its own. */
export function unrecordedNote(served: ServedChain, given: string | undefined): string | undefined {
  if (served.recorded) return undefined;
  const as = `serving it as chain ${served.id}${given === undefined ? ` (--default-chain to choose another)` : ''}`;
  return served.empty
    ? `the store is empty (nothing indexed yet, so no chain id recorded): ${as}; once indexed, a restart serves it under its own chain id`
    : `the store records no chain id (the indexer writes it; this store was filled otherwise): ${as}`;
}

/**
 * The id to serve `store` under. `given`: the id a flag names (`--default-chain`, or `<id>` of
 * `--chain <id>=<url>`), `flag` how to name it in the error.
 */
export async function servedChainId(store: OpenedStore, given: string | undefined, flag: string): Promise<ServedChain> {
  const [identity, head] = await Promise.all([store.sink.getChainIdentity(), store.sink.getIndexedHead()]);
  const empty = head === null;
  if (identity === null) return { id: given ?? UNRECORDED_CHAIN_ID, recorded: false, empty };
  const recorded = String(identity.chainId);
  if (given !== undefined && given !== recorded) {
    throw new ChainIdMismatchError(
      `${flag} says chain ${given}, but the store ${store.description} holds chain ${recorded} (recorded by the indexer): ` +
        `drop ${flag} to serve it as chain ${recorded}, or point it at chain ${given}'s store`,
    );
  }
  return { id: recorded, recorded: true, empty };
}
