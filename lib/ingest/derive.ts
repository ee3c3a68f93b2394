/**
 * Pure derivations applied before a block is written: the fields that records carry
 * pre-computed so that lists never need joins (block aggregates, transaction kinds, method ids,
 * timestamps copied from the block).
 */
import type {
  Address,
  BlockRecord,
  Hex,
  InternalTransactionRecord,
  TokenTransferRecord,
  TransactionKind,
  TransactionRecord,
} from '../domain/records.ts';
import { TRANSACTION_KINDS } from '../domain/records.ts';

export function methodIdOf(input: Hex): Hex | null {
  return input.length >= 10 ? (input.slice(0, 10).toLowerCase() as Hex) : null;
}

/** Effective gas price paid: stored price, else min(maxPriority, maxFee − base) + base. */
export function effectiveGasPrice(
  tx: Pick<TransactionRecord, 'gasPrice' | 'maxFeePerGas' | 'maxPriorityFeePerGas'>,
  baseFee: bigint | null,
): bigint | null {
  if (tx.gasPrice !== null) return tx.gasPrice;
  if (tx.maxFeePerGas === null || tx.maxPriorityFeePerGas === null || baseFee === null) return null;
  const tip = min(tx.maxPriorityFeePerGas, tx.maxFeePerGas - baseFee);
  return tip + baseFee;
}

/** Priority fee per gas paid to the miner: min(maxPriority, maxFee − base), legacy: price − base. */
export function priorityFeePerGas(
  tx: Pick<TransactionRecord, 'gasPrice' | 'maxFeePerGas' | 'maxPriorityFeePerGas'>,
  baseFee: bigint | null,
): bigint | null {
  if (baseFee === null) return null;
  const maxPriority = tx.maxPriorityFeePerGas ?? tx.gasPrice;
  const maxFee = tx.maxFeePerGas ?? tx.gasPrice;
  if (maxPriority === null || maxFee === null) return null;
  if (maxFee === 0n) return 0n;
  const tip = min(maxPriority, maxFee - baseFee);
  return tip < 0n ? 0n : tip;
}

export function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export interface KindContext {
  /** does the address have contract code (as known when the block is written) */
  readonly isContract: (address: Address) => boolean;
  /** is the address a token contract */
  readonly isToken: (address: Address) => boolean;
  /** does the transaction have token transfers */
  readonly hasTokenTransfers: boolean;
}

/** transaction_types, in Blockscout's emission order. */
export function transactionKinds(
  tx: Pick<TransactionRecord, 'value' | 'to' | 'createdContract' | 'type'>,
  ctx: KindContext,
): TransactionKind[] {
  const has: Record<TransactionKind, boolean> = {
    coin_transfer: tx.value > 0n,
    contract_call: tx.to !== null && ctx.isContract(tx.to),
    contract_creation: tx.to === null,
    token_creation: tx.createdContract !== null && ctx.isToken(tx.createdContract),
    token_transfer: ctx.hasTokenTransfers,
    blob_transaction: tx.type === 3,
    set_code_transaction: tx.type === 4,
  };
  return TRANSACTION_KINDS.filter((k) => has[k]);
}

export interface BlockAggregates {
  readonly transactionsCount: number;
  readonly internalTransactionsCount: number;
  readonly transactionFees: bigint;
  readonly burntFees: bigint;
  readonly priorityFee: bigint;
}

export function blockAggregates(
  block: Pick<BlockRecord, 'baseFeePerGas'>,
  transactions: readonly TransactionRecord[],
  internalTransactions: readonly InternalTransactionRecord[],
): BlockAggregates {
  let transactionFees = 0n;
  let burntFees = 0n;
  let priorityFee = 0n;
  const baseFee = block.baseFeePerGas;
  for (const tx of transactions) {
    const used = tx.gasUsed ?? 0n;
    const price = effectiveGasPrice(tx, baseFee);
    if (price !== null) transactionFees += price * used;
    if (baseFee !== null) {
      burntFees += baseFee * used;
      const tip = priorityFeePerGas(tx, baseFee);
      if (tip !== null) priorityFee += tip * used;
    }
  }
  return {
    transactionsCount: transactions.length,
    internalTransactionsCount: internalTransactions.filter((t) => t.index > 0).length,
    transactionFees,
    burntFees,
    priorityFee,
  };
}

/** The token transfer's method id is the transaction's. */
export function withTransferMethods(
  transfers: readonly TokenTransferRecord[],
  transactions: readonly TransactionRecord[],
): TokenTransferRecord[] {
  const byHash = new Map(transactions.map((t) => [t.hash, t]));
  return transfers.map((tt) => ({ ...tt, methodId: byHash.get(tt.transactionHash)?.methodId ?? null }));
}
