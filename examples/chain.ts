/**
 * A tiny chain for the examples: a few empty blocks written through the public DataSink.
 * (A real deployment fills its store with the indexer.)
 */
import type { BlockBundle, DataSink, Hash } from 'scoutkit';
import { address, EMPTY_HEX, hash, hex } from 'scoutkit';

// the records' hex kinds are branded: a value is marked as the kind it is where it is made
const hex32 = (n: number): Hash => hash(`0x${n.toString(16).padStart(64, '0')}`);
const MINER = address('0x00000000000000000000000000000000000000aa');

export async function writeDemoBlocks(sink: DataSink, count = 3): Promise<void> {
  const bundles: BlockBundle[] = [];
  for (let number = 0; number < count; number++) {
    bundles.push({
      block: {
        number,
        hash: hex32(0xb000 + number),
        parentHash: number === 0 ? hex32(0) : hex32(0xb000 + number - 1),
        timestamp: 1_700_000_000 + number * 12,
        miner: MINER,
        size: 500,
        gasLimit: 30_000_000n,
        gasUsed: 0n,
        baseFeePerGas: 1_000_000_000n,
        difficulty: 0n,
        totalDifficulty: 0n,
        nonce: hex('0x0000000000000000'),
        extraData: EMPTY_HEX,
        stateRoot: null,
        consensus: true,
        unclesHashes: [],
        transactionsCount: 0,
        internalTransactionsCount: 0,
        transactionFees: 0n,
        burntFees: 0n,
        priorityFee: 0n,
      },
      transactions: [],
      internalTransactions: [],
      logs: [],
      tokenTransfers: [],
      tokens: [],
      tokenBalances: [],
      coinBalances: [],
      tokenInstances: [],
      addresses: [],
      stateChanges: [],
    });
  }
  await sink.writeBlocks(bundles);
}
