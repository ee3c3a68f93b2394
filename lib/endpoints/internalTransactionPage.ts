/** Paging shared by every internal-transaction list (global, address, transaction, block). */
import type { InternalTransactionRecord } from '../domain/records.ts';
import type { ApiForm } from '../request.ts';
import type { JsonObject } from '../json.ts';
import { boolean, integer } from '../params/codecs.ts';
import { collect, echo, itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { ListBody } from '../paging/page.ts';
import type { DataSource, InternalTransactionCursor, InternalTransactionFilter } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { internalRefs, renderInternalTransaction } from '../render/internal.ts';
import type { InternalTransactionJson } from '../render/internal.ts';

export const INTERNAL_PAGING_QUERY = {
  block_number: integer({ min: 0 }),
  index: integer(),
  transaction_index: integer(),
  items_count: itemsCount,
  include_zero_value: boolean,
} as const;

export interface InternalPagingQuery {
  readonly block_number?: number;
  readonly index?: number;
  readonly transaction_index?: number;
  readonly items_count?: number;
  readonly limit?: number;
  readonly include_zero_value?: boolean;
}

/** A page of internal transactions; the multichain form adds the Pro API's fetch status. */
export type InternalPage = ListBody<InternalTransactionJson> & { readonly meta?: { readonly message: null; readonly status: number } };

const MAX = Number.MAX_SAFE_INTEGER;

export async function internalTransactionPage(
  ds: DataSource,
  filter: InternalTransactionFilter,
  q: InternalPagingQuery,
  rawQuery: Readonly<Record<string, string>>,
  echoed: readonly string[],
  render: RenderOptions,
  form: ApiForm,
): Promise<InternalPage> {
  const byTransaction = filter.transactionHash !== undefined;
  let first: InternalTransactionCursor | null = null;
  if (byTransaction ? q.index !== undefined : q.block_number !== undefined) {
    first = { blockNumber: q.block_number ?? MAX, transactionIndex: q.transaction_index ?? MAX, index: q.index ?? MAX };
  }
  const order = byTransaction ? 'asc' : 'desc';
  return renderInternalPage(ds, (after, limit) => ds.listInternalTransactions(filter, { after, limit, order }), first, q, render, form, (last, size) => ({
    ...echo(rawQuery, echoed),
    block_number: last.blockNumber,
    index: last.index,
    items_count: size,
    transaction_index: last.transactionIndex,
  }));
}

/**
 * One rendered page of internal transactions, shared by every internal-transaction list: the
 * probe past zero-value rows (unless included), the split, one context batch, the next keys the
 * list names, and the Pro API's fetch-status `meta` in the multichain form.
 */
export async function renderInternalPage(
  ds: DataSource,
  list: (after: InternalTransactionCursor | null, limit: number) => Promise<readonly InternalTransactionRecord[]>,
  first: InternalTransactionCursor | null,
  q: Pick<InternalPagingQuery, 'items_count' | 'limit' | 'include_zero_value'>,
  render: RenderOptions,
  form: ApiForm,
  nextKeys: (last: InternalTransactionRecord, size: number) => JsonObject,
): Promise<InternalPage> {
  const size = pageSize(q);
  const keepZero = q.include_zero_value ?? true;
  const probe = await collect<InternalTransactionRecord, InternalTransactionCursor>(
    list,
    (r) => ({ blockNumber: r.blockNumber, transactionIndex: r.transactionIndex, index: r.index }),
    first,
    size + 1,
    (r) => keepZero || r.value !== 0n,
  );
  const { rows, last } = splitPage(probe, size);
  const ctx = await loadContext(ds, internalRefs(rows), render);
  const body = listBody(
    rows.map((r) => renderInternalTransaction(r, ctx)),
    last === null ? null : nextKeys(last, size),
  );
  // the Pro API adds a fetch-status object to internal-transaction lists (1: complete)
  return form === 'multichain' ? { ...body, meta: { message: null, status: 1 } } : body;
}
