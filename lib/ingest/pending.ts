/** A transaction of the node's pool as a pending TransactionRecord (no block, no receipt yet). */
import type { SourcePendingTransaction } from '../chain-source.ts';
import type { Address, TransactionRecord } from '../domain/records.ts';
import { methodIdOf, transactionKinds } from './derive.ts';

/**
 * `insertedAt`: when the indexer first saw it (unix ms; orders the pending list);
 * `isContract`: whether its recipient holds code (a contract call), as far as the indexer knows.
 */
export function pendingRecord(tx: SourcePendingTransaction, insertedAt: number, isContract: (address: Address) => boolean): TransactionRecord {
  const partial = {
    hash: tx.hash,
    blockNumber: null,
    blockHash: null,
    index: null,
    timestamp: null,
    baseFeePerGas: null,
    from: tx.from,
    to: tx.to,
    createdContract: null,
    value: tx.value,
    gas: tx.gas,
    gasPrice: tx.gasPrice,
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
    gasUsed: null,
    status: null,
    error: null,
    revertReason: null,
    nonce: tx.nonce,
    type: tx.type,
    input: tx.input,
    methodId: methodIdOf(tx.input),
    insertedAt,
    hasErrorInInternalTransactions: null,
    ...(tx.signature !== undefined ? { signature: tx.signature } : {}),
  };
  return { ...partial, kinds: transactionKinds(partial, { isContract, isToken: () => false, hasTokenTransfers: false }) };
}
