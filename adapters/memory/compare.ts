/**
 * The list orders of lib/ports.ts as comparators, and the cursor positions derived from them.
 *
 * Every order is written as `cmp(a, b) < 0` ⇔ "a comes before b in the list" (the 'desc' form
 * of lib/ports.ts unless stated). A cursor is the sort key of the last row of the previous
 * page; each `*Vs` function gives a row's position against it in that order (> 0: after it,
 * 0: at it, < 0: before it), which paging.ts walks forward ('desc') or backward ('asc').
 */
import type {
  AddressRecord,
  BlockRecord,
  CoinBalanceRecord,
  InternalTransactionRecord,
  LogRecord,
  NftTokenType,
  TokenRecord,
  TokenTransferRecord,
  TransactionRecord,
} from '../../lib/domain/records.ts';
import { asciiLower, compareCodePoints } from '../../lib/domain/text.ts';
import { NFT_TOKEN_TYPES } from '../../lib/domain/records.ts';
import type {
  AddressListCursor,
  BlockCursor,
  BlockRange,
  CoinBalanceCursor,
  LogCursor,
  CurrentTokenBalance,
  InternalTransactionCursor,
  NftCollectionCursor,
  TokenBalanceCursor,
  TokenHolderCursor,
  TokenInstanceCursor,
  TokenListCursor,
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
export const blockVs = (c: BlockCursor) => (b: BlockRecord) => asc(c.number, b.number);

// ---- block ranges over arrays in block-number order ------------------------------------------

/** A range as a window over an array sorted by block number DESC. */
export function rangeDesc<T>(r: BlockRange | undefined, bn: (x: T) => number): ((x: T) => number) | undefined {
  return rangeWindow(r, bn, -1);
}
/** A range as a window over an array sorted by block number ASC. */
export function rangeAsc<T>(r: BlockRange | undefined, bn: (x: T) => number): ((x: T) => number) | undefined {
  return rangeWindow(r, bn, 1);
}
function rangeWindow<T>(r: BlockRange | undefined, bn: (x: T) => number, dir: 1 | -1): ((x: T) => number) | undefined {
  if (r === undefined || (r.from === undefined && r.to === undefined)) return undefined;
  const lo = r.from ?? -Infinity;
  const hi = r.to ?? Infinity;
  return (x) => {
    const n = bn(x);
    return n < lo ? -dir : n > hi ? dir : 0;
  };
}
/** The range as a row test. */
export function inRange(r: BlockRange | undefined, n: number | null): boolean {
  if (r === undefined) return true;
  if (n === null) return false;
  return (r.from === undefined || n >= r.from) && (r.to === undefined || n <= r.to);
}

// ---- validated transactions: (blockNumber DESC, index DESC) ---------------------------------

/** Validated transactions always carry blockNumber and index (the write side checks it). */
const bn = (t: TransactionRecord): number => t.blockNumber ?? -1;
const ix = (t: TransactionRecord): number => t.index ?? -1;
export const minedOrder: Cmp<TransactionRecord> = (a, b) => asc(bn(b), bn(a)) || asc(ix(b), ix(a));
export const minedVs = (c: { readonly blockNumber: number; readonly index: number }) => (t: TransactionRecord) =>
  asc(c.blockNumber, bn(t)) || asc(c.index, ix(t));

// ---- pending transactions: (insertedAt DESC, hash ASC) --------------------------------------

export const pendingOrder: Cmp<TransactionRecord> = (a, b) =>
  asc(b.insertedAt, a.insertedAt) || ascStr(a.hash, b.hash);
export const pendingVs = (c: { readonly insertedAt: number; readonly hash: string }) => (t: TransactionRecord) =>
  asc(c.insertedAt, t.insertedAt) || ascStr(t.hash, c.hash);

// ---- internal transactions ------------------------------------------------------------------

/** Without a transaction: (blockNumber DESC, transactionIndex DESC, index DESC). */
export const internalOrder: Cmp<InternalTransactionRecord> = (a, b) =>
  asc(b.blockNumber, a.blockNumber) || asc(b.transactionIndex, a.transactionIndex) || asc(b.index, a.index);
export const internalVs = (c: InternalTransactionCursor) => (r: InternalTransactionRecord) =>
  asc(c.blockNumber, r.blockNumber) || asc(c.transactionIndex, r.transactionIndex) || asc(c.index, r.index);
/** Within one transaction, over an array in index ASC order ('asc'): the cursor's index alone. */
export const internalInTxOrder: Cmp<InternalTransactionRecord> = (a, b) => asc(a.index, b.index);
export const internalInTxVs = (c: InternalTransactionCursor) => (r: InternalTransactionRecord) => asc(r.index, c.index);

// ---- token transfers ------------------------------------------------------------------------

/** Without a transaction: (blockNumber DESC, logIndex DESC). */
export const transferOrder: Cmp<TokenTransferRecord> = (a, b) =>
  asc(b.blockNumber, a.blockNumber) || asc(b.logIndex, a.logIndex);
export const transferVs = (c: TokenTransferCursor) => (r: TokenTransferRecord) =>
  asc(c.blockNumber, r.blockNumber) || asc(c.logIndex, r.logIndex);
/** Within one transaction, over an array in logIndex ASC order ('asc'): the cursor's logIndex alone. */
export const transferInTxOrder: Cmp<TokenTransferRecord> = (a, b) => asc(a.logIndex, b.logIndex);
export const transferInTxVs = (c: TokenTransferCursor) => (r: TokenTransferRecord) => asc(r.logIndex, c.logIndex);

// ---- logs -----------------------------------------------------------------------------------

/** (blockNumber DESC, index DESC). */
export const logOrder: Cmp<LogRecord> = (a, b) => asc(b.blockNumber, a.blockNumber) || asc(b.index, a.index);
export const logVs = (c: LogCursor) => (l: LogRecord) => asc(c.blockNumber, l.blockNumber) || asc(c.index, l.index);
/** Within one transaction, over an array in index ASC order ('asc'): the cursor's index alone. */
export const logInTxVs = (c: LogCursor) => (l: LogRecord) => asc(l.index, c.index);

// ---- coin balances: blockNumber DESC (one address) -------------------------------------------

export const coinBalanceOrder: Cmp<CoinBalanceRecord> = (a, b) => asc(b.blockNumber, a.blockNumber);
export const coinBalanceVs = (c: CoinBalanceCursor) => (r: CoinBalanceRecord) => asc(c.blockNumber, r.blockNumber);

// ---- token balances: (value DESC, tokenAddress DESC, tokenId DESC with null lowest) ----------

type BalanceKey = Pick<CurrentTokenBalance, 'value' | 'tokenAddress' | 'tokenId'>;
export const balanceOrder: Cmp<BalanceKey> = (a, b) =>
  ascBig(b.value, a.value) || ascStr(b.tokenAddress, a.tokenAddress) || ascBigNullLow(b.tokenId, a.tokenId);
export const balanceVs = (c: TokenBalanceCursor) => (r: BalanceKey) => balanceOrder(r, c);

// ---- token holders ---------------------------------------------------------------------------

type HolderKey = Pick<CurrentTokenBalance, 'value' | 'holder' | 'tokenId'>;
export const holderOrder: Cmp<HolderKey> = (a, b) =>
  ascBig(b.value, a.value) || ascStr(b.holder, a.holder) || ascBigNullLow(b.tokenId, a.tokenId);
export const holderVs = (c: TokenHolderCursor) => (r: HolderKey) => holderOrder(r, c);

// ---- NFT collections: 'asc' is (type rank in NFT_TOKEN_TYPES ASC, tokenAddress ASC) ----------

export function nftRank(t: NftTokenType): number {
  return NFT_TOKEN_TYPES.indexOf(t);
}
type CollectionKey = NftCollectionCursor;
export const collectionOrder: Cmp<CollectionKey> = (a, b) =>
  asc(nftRank(a.tokenType), nftRank(b.tokenType)) || ascStr(a.tokenAddress, b.tokenAddress);
/** Over an array in collectionOrder ('asc'). */
export const collectionVs = (c: NftCollectionCursor) => (r: CollectionKey) => collectionOrder(r, c);

// ---- token instances: tokenId DESC -----------------------------------------------------------

export const tokenIdDesc: Cmp<bigint> = (a, b) => ascBig(b, a);
export const instanceVs = (c: TokenInstanceCursor) => (id: bigint) => ascBig(c.tokenId, id);

// ---- tokens: (holdersCount DESC, name ASC with null last, address ASC) ------------------------

/** Names by code point, null after every name. */
function nameNullLast(a: string | null, b: string | null): number {
  if (a === null) return b === null ? 0 : 1;
  if (b === null) return -1;
  return compareCodePoints(a, b);
}
type TokenKey = Pick<TokenRecord, 'holdersCount' | 'name' | 'address'>;
export const tokenListOrder: Cmp<TokenKey> = (a, b) =>
  ascBig(b.holdersCount, a.holdersCount) || nameNullLast(a.name, b.name) || ascStr(a.address, b.address);
export const tokenListVs = (c: TokenListCursor) => (t: TokenKey) => tokenListOrder(t, c);

// ---- named addresses: (asciiLower(name) ASC, hash ASC) ----------------------------------------

type NamedKey = { readonly name: string; readonly hash: AddressRecord['hash'] };
export const namedAddressOrder: Cmp<NamedKey> = (a, b) => compareCodePoints(asciiLower(a.name), asciiLower(b.name)) || ascStr(a.hash, b.hash);
export const namedAddressVs = (c: AddressListCursor) => (a: NamedKey) => namedAddressOrder(a, c);
