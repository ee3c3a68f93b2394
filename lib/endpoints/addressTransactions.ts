/**
 * GET /addresses/{address_hash_param}/transactions — transactions from, to or creating an
 * address, pending included. Blockscout's order: pending first (inserted_at DESC, hash ASC),
 * then validated (block_number DESC, index DESC); `sort=block_number&order=asc` is the exact
 * reverse (validated ascending, then pending). `filter=to` also matches the created contract.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Address, Hash, TransactionRecord } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';
import { addressHash, dateTime, enumOf, fullHash, integerOrNull, integerStringOrNull } from '../params/codecs.ts';
import { echo, itemsCount, listBody, pageSize } from '../paging/page.ts';
import type { DataSource, Direction, Order, TransactionCursor } from '../ports.ts';
import { loadContext } from '../render/context.ts';
import { renderTransaction, transactionRefs } from '../render/transaction.ts';
import { page } from '../schema/page.ts';
import { Transaction } from '../schema/transaction.ts';
import { defineEndpoint } from './endpoint.ts';

type Section = 'pending' | 'validated';

/** The two sections of the list in the page's order. */
const sectionsOf = (order: Order): readonly Section[] => (order === 'desc' ? ['pending', 'validated'] : ['validated', 'pending']);

interface Start {
  readonly section: Section;
  readonly after: TransactionCursor | null;
}

/** Where the page starts: the section of the cursor (a pending row's block_number is null). */
function startOf(
  q: { readonly block_number?: number | null; readonly index?: number | null; readonly inserted_at?: number; readonly hash?: Hash },
  order: Order,
): Start {
  if (q.block_number !== undefined && q.block_number !== null) {
    const index = q.index ?? (order === 'desc' ? Number.MAX_SAFE_INTEGER : -1);
    return { section: 'validated', after: { blockNumber: q.block_number, index } };
  }
  if (q.inserted_at !== undefined && q.hash !== undefined) {
    return { section: 'pending', after: { insertedAt: q.inserted_at, hash: q.hash } };
  }
  return { section: sectionsOf(order)[0] as Section, after: null };
}

/**
 * Up to `limit` rows from the start, crossing from one section into the next. The sections are
 * read at once (one wait instead of two: the pending one is mostly empty), each up to `limit`;
 * the next section's rows fill what room the first leaves.
 */
async function readRows(
  ds: DataSource,
  address: Address,
  direction: Direction,
  start: Start,
  order: Order,
  limit: number,
): Promise<TransactionRecord[]> {
  const sections = sectionsOf(order);
  const pages = await Promise.all(
    sections
      .slice(sections.indexOf(start.section))
      .map((section) => ds.listTransactions({ status: section, address, direction }, { after: section === start.section ? start.after : null, limit, order })),
  );
  return pages.flat().slice(0, limit);
}

/** Blockscout's paging fee: gas price × (gas used, else the gas limit); null without a price. */
const feeOf = (tx: TransactionRecord): string | null => (tx.gasPrice === null ? null : String(tx.gasPrice * (tx.gasUsed ?? tx.gas)));

export const addressTransactions = defineEndpoint({
  route: '/addresses/{address_hash_param}/transactions',
  summary: 'Transactions from, to or creating an address, pending first',
  path: { address_hash_param: addressHash },
  query: {
    filter: enumOf(['to', 'from'] as const),
    sort: enumOf(['block_number', 'value', 'fee'] as const),
    order: enumOf(['asc', 'desc'] as const),
    block_number: integerOrNull,
    index: integerOrNull,
    inserted_at: dateTime,
    hash: fullHash,
    value: integerStringOrNull,
    fee: integerStringOrNull,
    items_count: itemsCount,
  },
  response: page(Transaction),
  handler:
    ({ ds, render }) =>
    ({ path, query, rawQuery }) =>
    async () => {
      const size = pageSize(query);
      // sort and order apply only together, as in Blockscout; value and fee order as block_number (see docs/api-behaviour.md)
      const order: Order = query.sort !== undefined && query.order === 'asc' ? 'asc' : 'desc';
      const direction: Direction = query.filter ?? 'any';
      const probe = await readRows(ds, path.address_hash_param, direction, startOf(query, order), order, size + 1);
      const rows = probe.slice(0, size);
      const ctx = await loadContext(ds, transactionRefs(rows), render);
      const items = rows.map((tx) => renderTransaction(tx, ctx, { tokenTransfers: null, detail: false }));
      const last = rows[rows.length - 1];
      let next: JsonObject | null = null;
      if (probe.length > size && last !== undefined) {
        next = {
          ...echo(rawQuery, ['filter', 'sort', 'order']),
          block_number: last.blockNumber,
          fee: feeOf(last),
          hash: last.hash,
          index: last.index,
          inserted_at: new Date(last.insertedAt).toISOString(),
          items_count: size,
          value: String(last.value),
        };
      }
      return E.right(listBody(items, next));
    },
});
