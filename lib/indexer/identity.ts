/**
 * Which chain a store holds. The indexer refuses to write blocks of one chain into a store of
 * another: dev chains restart all the time, and their block numbers overlap.
 *
 * Every DataSink remembers the identity (getChainIdentity/setChainIdentity in lib/ports.ts).
 */
import type { ChainIdentity } from '../ports.ts';

export type { ChainIdentity };

export class ChainMismatchError extends Error {
  override readonly name = 'ChainMismatchError';
  constructor(
    readonly stored: ChainIdentity,
    readonly node: ChainIdentity,
  ) {
    const what =
      stored.chainId !== node.chainId
        ? `chain id ${node.chainId}, but the store holds chain id ${stored.chainId}`
        : `genesis block ${node.genesisHash}, but the store holds a chain with genesis ${stored.genesisHash} (same chain id ${node.chainId}: was the node restarted?)`;
    super(`refusing to index: the node serves ${what}. Point --db at another store, or start over with --reset.`);
  }
}

export class ReorgTooDeepError extends Error {
  override readonly name = 'ReorgTooDeepError';
  constructor(readonly depth: number) {
    super(
      `refusing to roll back more than ${depth} blocks: the node's chain does not continue the stored one (a different or restarted chain?). Start over with --reset.`,
    );
  }
}
