/**
 * The list orders of lib/ports.ts as comparators, and the cursor tests derived from them.
 *
 * Every order is written as `cmp(a, b) < 0` ⇔ "a comes before b in the list". A cursor is the
 * sort key of the last row of the previous page, so "strictly after the cursor" is
 * `cmp(row, cursor) > 0` on the key — each `*After` function below states exactly that.
 */
import type {
  BlockRecord,
  InternalTransactionRecord,
  NftTokenType,
  TokenTransferRecord,
  TransactionRecord,
} from '../../lib/domain/records.ts';
import { NFT_TOKEN_TYPES } from '../../lib/domain/records.ts';
import type {
  BlockCursor,
  CurrentTokenBalance,
  InternalTransactionCursor,
  NftCollectionCursor,
  TokenBalanceCursor,
  TokenInstanceCursor,
  TokenTransferCursor,
} from '../../lib/ports.ts';

export type Cmp<T> = (a: T, b: T) => number;

export function asc(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
export function ascBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
/** Code-unit order; for lower-case hex of equal length this is numeric order. */
export function ascStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
/** bigint order where null is below every value. */
export function ascBigNullLow(a: bigint | null, b: bigint | null): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  return ascBig(a, b);
}

// ---- blocks: number DESC (hash ASC only to make non-consensus siblings deterministic) -------

export const blockOrder: Cmp<BlockRecord> = (a, b) => asc(b.number, a.number) || ascStr(a.hash, b.hash);
export const blockAfter = (c: BlockCursor) => (b: BlockRecord) => b.number < c.number;

// ---- validated transactions: (blockNumber DESC, index DESC) ---------------------------------

/** Validated transactions always carry blockNumber and index (the write side checks it). */
const bn = (t: TransactionRecord): number => t.blockNumber ?? -1;
const ix = (t: TransactionRecord): number => t.index ?? -1;
export const minedOrder: Cmp<TransactionRecord> = (a, b) => asc(bn(b), bn(a)) || asc(ix(b), ix(a));
export const minedAfter = (c: { readonly blockNumber: number; readonly index: number }) => (t: TransactionRecord) =>
  bn(t) < c.blockNumber || (bn(t) === c.blockNumber && ix(t) < c.index);

// ---- pending transactions: (insertedAt DESC, hash ASC) --------------------------------------

export const pendingOrder: Cmp<TransactionRecord> = (a, b) =>
  asc(b.insertedAt, a.insertedAt) || ascStr(a.hash, b.hash);
export const pendingAfter = (c: { readonly insertedAt: number; readonly hash: string }) => (t: TransactionRecord) =>
  t.insertedAt < c.insertedAt || (t.insertedAt === c.insertedAt && t.hash > c.hash);

// ---- internal transactions ------------------------------------------------------------------

/** Without a transaction: (blockNumber DESC, transactionIndex DESC, index DESC). */
export const internalOrder: Cmp<InternalTransactionRecord> = (a, b) =>
  asc(b.blockNumber, a.blockNumber) || asc(b.transactionIndex, a.transactionIndex) || asc(b.index, a.index);
export const internalAfter = (c: InternalTransactionCursor) => (r: InternalTransactionRecord) =>
  r.blockNumber < c.blockNumber ||
  (r.blockNumber === c.blockNumber &&
    (r.transactionIndex < c.transactionIndex || (r.transactionIndex === c.transactionIndex && r.index < c.index)));
/** Within one transaction: index ASC. */
export const internalInTxOrder: Cmp<InternalTransactionRecord> = (a, b) => asc(a.index, b.index);
export const internalInTxAfter = (c: InternalTransactionCursor) => (r: InternalTransactionRecord) => r.index > c.index;

// ---- token transfers ------------------------------------------------------------------------

/** Without a transaction: (blockNumber DESC, logIndex DESC). */
export const transferOrder: Cmp<TokenTransferRecord> = (a, b) =>
  asc(b.blockNumber, a.blockNumber) || asc(b.logIndex, a.logIndex);
export const transferAfter = (c: TokenTransferCursor) => (r: TokenTransferRecord) =>
  r.blockNumber < c.blockNumber ||
  (r.blockNumber === c.blockNumber && (c.inclusive === true ? r.logIndex <= c.logIndex : r.logIndex < c.logIndex));
/** Within one transaction: logIndex ASC (the cursor's blockNumber is the transaction's). */
export const transferInTxOrder: Cmp<TokenTransferRecord> = (a, b) => asc(a.logIndex, b.logIndex);
export const transferInTxAfter = (c: TokenTransferCursor) => (r: TokenTransferRecord) =>
  c.inclusive === true ? r.logIndex >= c.logIndex : r.logIndex > c.logIndex;

// ---- token balances: (value DESC, tokenAddress DESC, tokenId DESC with null lowest) ----------

type BalanceKey = Pick<CurrentTokenBalance, 'value' | 'tokenAddress' | 'tokenId'>;
export const balanceOrder: Cmp<BalanceKey> = (a, b) =>
  ascBig(b.value, a.value) || ascStr(b.tokenAddress, a.tokenAddress) || ascBigNullLow(b.tokenId, a.tokenId);
export const balanceAfter = (c: TokenBalanceCursor) => (r: BalanceKey) => balanceOrder(r, c) > 0;

// ---- NFT collections: (type rank in NFT_TOKEN_TYPES ASC, tokenAddress ASC) ------------------

export function nftRank(t: NftTokenType): number {
  return NFT_TOKEN_TYPES.indexOf(t);
}
type CollectionKey = NftCollectionCursor;
export const collectionOrder: Cmp<CollectionKey> = (a, b) =>
  asc(nftRank(a.tokenType), nftRank(b.tokenType)) || ascStr(a.tokenAddress, b.tokenAddress);
export const collectionAfter = (c: NftCollectionCursor) => (r: CollectionKey) => collectionOrder(r, c) > 0;

// ---- token instances: tokenId DESC -----------------------------------------------------------

export const tokenIdDesc: Cmp<bigint> = (a, b) => ascBig(b, a);
export const instanceAfter = (c: TokenInstanceCursor) => (id: bigint) => id < c.tokenId;
