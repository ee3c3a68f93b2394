/**
 * The memory store's write-side first phase: check a bundle (lib/sink/validate.ts), copy and
 * freeze it, and index its per-transaction rows. Pure — it throws on a malformed bundle and
 * touches no store state, so `writeBlocks` can prepare a whole batch before applying any of it.
 */
import type {
  BlockBundle,
  BlockRecord,
  Hash,
  InternalTransactionRecord,
  LogRecord,
  StateChangeRecord,
  TokenTransferRecord,
  TransactionRecord,
} from '../../lib/domain/records.ts';
import { isListedInternal, validateBundle, validatePending } from '../../lib/sink/validate.ts';
import { asc, internalInTxOrder, transferInTxOrder } from './compare.ts';

export { InvalidWriteError } from '../../lib/sink/validate.ts';

/** A stored block: the frozen bundle plus its rows grouped by transaction, in list order. */
export interface StoredBlock {
  readonly block: BlockRecord;
  readonly bundle: BlockBundle;
  readonly transactions: ReadonlyMap<Hash, TransactionRecord>;
  /** index ASC */
  readonly logsByTx: ReadonlyMap<Hash, readonly LogRecord[]>;
  /** index ASC; only listed traces (the top-level call is left out, see isListedInternal) */
  readonly internalByTx: ReadonlyMap<Hash, readonly InternalTransactionRecord[]>;
  /** logIndex ASC */
  readonly transfersByTx: ReadonlyMap<Hash, readonly TokenTransferRecord[]>;
  /** ordinal ASC */
  readonly stateChangesByTx: ReadonlyMap<Hash, readonly StateChangeRecord[]>;
}

/** Deep copy (structuredClone keeps bigint) and deep freeze: callers can never reach store state. */
export function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function groupSorted<T>(rows: readonly T[], key: (r: T) => Hash, order: (a: T, b: T) => number): Map<Hash, T[]> {
  const out = new Map<Hash, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list === undefined) out.set(k, [r]);
    else list.push(r);
  }
  for (const list of out.values()) list.sort(order);
  return out;
}

/** Check one bundle and turn it into a StoredBlock. Throws InvalidWriteError; changes nothing. */
export function prepareBundle(input: BlockBundle): StoredBlock {
  const txHash = (r: { readonly transactionHash: Hash }) => r.transactionHash;
  const bundle = frozenCopy(input);
  validateBundle(bundle);
  const transactions = new Map<Hash, TransactionRecord>(bundle.transactions.map((tx) => [tx.hash, tx]));
  return {
    block: bundle.block,
    bundle,
    transactions,
    logsByTx: groupSorted(bundle.logs, txHash, (a, b) => asc(a.index, b.index)),
    internalByTx: groupSorted(bundle.internalTransactions.filter(isListedInternal), txHash, internalInTxOrder),
    transfersByTx: groupSorted(bundle.tokenTransfers, txHash, transferInTxOrder),
    stateChangesByTx: groupSorted(bundle.stateChanges, txHash, (a, b) => asc(a.ordinal, b.ordinal)),
  };
}

/** Check and copy mempool transactions. */
export function preparePending(input: readonly TransactionRecord[]): TransactionRecord[] {
  const txs = input.map((t) => frozenCopy(t));
  validatePending(txs);
  return txs;
}
