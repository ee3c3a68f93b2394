/**
 * Contracts created in block 1 of a store built by code: one creation transaction each, with
 * its runtime code and creation input written as the indexer writes a created contract.
 */
import type { Address, ContractCodeRecord, Hex } from '../../lib/domain/records.ts';
import { hex } from '../../lib/domain/hex.ts';
import type { DataSink } from '../../lib/ports.ts';
import { addr, block, bundle, tx } from '../ports/records.ts';

/** an address, its runtime code (hex without 0x) and the creation transaction's input */
export type CreatedContract = readonly [address: Address, runtime: string, input: Hex];

/** Write blocks 0 and 1, block 1 creating each contract in order (creator 0x…0a). */
export async function writeCreatedContracts(store: DataSink, created: readonly CreatedContract[]): Promise<void> {
  const b0 = block(0);
  const b1 = block(1);
  const transactions = created.map(([address, , input], i) => tx(b1, i, { to: null, createdContract: address, input }));
  const contractCodes = created.map(
    ([address, runtime, input], i): ContractCodeRecord => ({
      address,
      blockNumber: 1,
      blockHash: b1.hash,
      transactionHash: (transactions[i] as { hash: ContractCodeRecord['transactionHash'] }).hash,
      transactionIndex: i,
      timestamp: b1.timestamp,
      creator: addr(0xa),
      deployedBytecode: hex(`0x${runtime}`),
      creationBytecode: input,
    }),
  );
  await store.writeBlocks([bundle(b0), bundle(b1, { transactions, contractCodes })]);
}
