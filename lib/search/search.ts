/**
 * Search composition (pure: records come from the DataSource's index-backed queries).
 *
 * - Exact part (first page only, never re-sorted): an address hash → its token, then its
 *   address record; a 32-byte hash → the transaction, then the block (any consensus), then the
 *   user operation (through the optional user-operation queries: a store without them finds
 *   none); a number → the blocks at that height (consensus first, then lost-consensus ones).
 * - Text part, in priority order: tokens (priority 2, listTokens order: holders DESC, name,
 *   address), then named contracts (priority 0, listAddresses order: lower-cased name, hash).
 *   Each is a keyset category: a /search page continues each one from its own cursor.
 */
import type { AddressRecord, BlockRecord, TokenRecord } from '../domain/records.ts';
import type { AddressListCursor, DataSource, TokenListCursor } from '../ports.ts';
import type { SearchQuery } from './classify.ts';
import { textOf } from './classify.ts';
import { addressItem, blockItem, tokenItem, transactionItem, userOperationItem } from './items.ts';
import type { SearchItemJson } from './items.ts';

/** The most blocks listed at one height (one consensus block and its lost-consensus siblings). */
const BLOCKS_AT_HEIGHT = 50;

/** Items of the exact part of a query, in Blockscout's order. */
export async function exactItems(ds: DataSource, s: SearchQuery): Promise<SearchItemJson[]> {
  switch (s.kind) {
    case 'address': {
      const [token, addresses] = await Promise.all([ds.getToken(s.address), ds.getAddresses([s.address])]);
      const items: SearchItemJson[] = [];
      if (token !== null) items.push(tokenItem(token));
      for (const a of addresses) items.push(addressItem(a, 'address'));
      return items;
    }
    case 'hash': {
      const [tx, block, op] = await Promise.all([ds.getTransaction(s.hash), ds.getBlock({ hash: s.hash }), ds.getUserOperation?.(s.hash) ?? null]);
      return [
        ...(tx === null ? [] : [transactionItem(tx)]),
        ...(block === null ? [] : [blockItem(block)]),
        ...(op === null ? [] : [userOperationItem(op)]),
      ];
    }
    case 'number':
      return (await blocksAt(ds, s.number)).map(blockItem);
    default:
      return [];
  }
}

async function blocksAt(ds: DataSource, n: number | null): Promise<BlockRecord[]> {
  if (n === null) return [];
  const range = { from: n, to: n };
  const [consensus, reorgs] = await Promise.all([
    ds.listBlocks({ kind: 'block', blocks: range }, { after: null, limit: 1, order: 'desc' }),
    ds.listBlocks({ kind: 'reorg', blocks: range }, { after: null, limit: BLOCKS_AT_HEIGHT, order: 'desc' }),
  ]);
  return [...consensus, ...reorgs];
}

export interface TextCursors {
  readonly token: TokenListCursor | null;
  readonly contract: AddressListCursor | null;
}

export interface TextRows {
  readonly tokens: readonly TokenRecord[];
  readonly contracts: readonly (AddressRecord & { readonly name: string })[];
}

/** Up to `limit` text results past the cursors: tokens first, then contracts. */
export async function textRows(ds: DataSource, text: string | null, cursors: TextCursors, limit: number): Promise<TextRows> {
  if (text === null || limit <= 0) return { tokens: [], contracts: [] };
  const tokens = await ds.listTokens({ prefix: text }, { after: cursors.token, limit, order: 'desc' });
  const room = limit - tokens.length;
  const contracts =
    room <= 0 || ds.listAddresses === undefined
      ? []
      : await ds.listAddresses({ namePrefix: text, isContract: true }, { after: cursors.contract, limit: room, order: 'desc' });
  return { tokens, contracts: contracts.filter((a): a is AddressRecord & { readonly name: string } => a.name !== null) };
}

export interface SearchPageResult {
  readonly items: readonly SearchItemJson[];
  /** the cursors of the last token and the last contract shown (null: none on this page) */
  readonly last: { readonly token: TokenListCursor | null; readonly contract: AddressListCursor | null };
  readonly more: boolean;
}

/**
 * One /search page of `size` items: on the first page the exact part (whole, even past a tiny
 * `size`: a few items, never paged), then the text part from the cursors. `more` when another
 * item follows.
 */
export async function searchPage(ds: DataSource, s: SearchQuery, cursors: TextCursors, first: boolean, size: number): Promise<SearchPageResult> {
  const exact = first ? await exactItems(ds, s) : [];
  const room = Math.max(0, size - exact.length);
  const rows = await textRows(ds, textOf(s), cursors, room + 1);
  const tokens = rows.tokens.slice(0, room);
  const contracts = rows.contracts.slice(0, room - tokens.length);
  const lastToken = tokens[tokens.length - 1];
  const lastContract = contracts[contracts.length - 1];
  return {
    items: [...exact, ...tokens.map(tokenItem), ...contracts.map((c) => addressItem(c, 'contract'))],
    last: {
      token: lastToken === undefined ? null : { holdersCount: lastToken.holdersCount, name: lastToken.name, address: lastToken.address },
      contract: lastContract === undefined ? null : { name: lastContract.name, hash: lastContract.hash },
    },
    more: rows.tokens.length + rows.contracts.length > room,
  };
}

/** /search/quick's total. */
export const QUICK_LIMIT = 50;

/**
 * Share `total` slots among categories so that every non-empty one is represented: categories
 * that fit their fair share are taken whole, the rest split the remaining slots evenly (the
 * earlier categories get the odd slots).
 */
export function shareSlots(sizes: readonly number[], total: number): number[] {
  const out = sizes.map(() => 0);
  let open = sizes.map((_, i) => i).filter((i) => (sizes[i] as number) > 0);
  let slots = total;
  for (;;) {
    if (open.length === 0 || slots <= 0) return out;
    const fair = Math.floor(slots / open.length);
    const small = open.filter((i) => (sizes[i] as number) <= fair);
    if (small.length === 0) {
      const extra = slots - fair * open.length;
      open.forEach((i, k) => {
        out[i] = fair + (k < extra ? 1 : 0);
      });
      return out;
    }
    for (const i of small) {
      out[i] = sizes[i] as number;
      slots -= sizes[i] as number;
    }
    open = open.filter((i) => !small.includes(i));
  }
}

/** /search/quick: every category (at most QUICK_LIMIT each), shared out, then by priority DESC (stable). */
export async function quickSearch(ds: DataSource, s: SearchQuery): Promise<SearchItemJson[]> {
  const exact = await exactItems(ds, s);
  const text = textOf(s);
  const first = { after: null, limit: QUICK_LIMIT, order: 'desc' } as const;
  const [tokens, contracts] =
    text === null
      ? [[], []]
      : await Promise.all([ds.listTokens({ prefix: text }, first), ds.listAddresses?.({ namePrefix: text, isContract: true }, first) ?? []]);
  const categories: SearchItemJson[][] = [
    exact.filter((i) => i.type === 'block'),
    exact.filter((i) => i.type === 'transaction'),
    exact.filter((i) => i.type === 'user_operation'),
    exact.filter((i) => i.type === 'token'),
    exact.filter((i) => i.type === 'address'),
    tokens.map(tokenItem),
    contracts.map((c) => addressItem(c, 'contract')),
  ];
  const shares = shareSlots(categories.map((c) => c.length), QUICK_LIMIT);
  const items = categories.flatMap((c, i) => c.slice(0, shares[i]));
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => b.item.priority - a.item.priority || a.i - b.i)
    .map((x) => x.item);
}
