/** listInternalTransactions: one seek per address side, or one transaction by trace index. */
import type { InternalTransactionRecord } from '../../../lib/domain/records.ts';
import type { InternalTransactionCursor, InternalTransactionFilter, Page } from '../../../lib/ports.ts';
import { asRows, toInternal } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { cmpNum, inOrderOf, mergePages, orderBy, pageSize, past, sideColumns, touching, within } from './seek.ts';

export async function listInternalTransactions(c: SqlContext, filter: InternalTransactionFilter, page: Page<InternalTransactionCursor>): Promise<readonly InternalTransactionRecord[]> {
  const { knex } = c;
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const at = page.after;
  const { address, direction, transactionHash, blocks } = filter;
  if (transactionHash !== undefined) {
    let q = knex('internal_transactions').where({ transaction_hash: transactionHash, listed: true });
    if (at !== null) q = past(q, ['trace_index'], [at.index], page.order);
    q = within(touching(q, address, direction, 'from_address', ['to_address', 'created_contract']), 'block_number', blocks);
    return asRows(await q.orderBy(orderBy([['trace_index', 'desc']], page.order)).limit(n)).map(toInternal);
  }
  const seek = async (column: string | null) => {
    let q = knex('internal_transactions').where('listed', true);
    if (column !== null) q = q.andWhere(column, address);
    if (at !== null) q = past(q, ['"block_number"', '"transaction_index"', '"trace_index"'], [at.blockNumber, at.transactionIndex, at.index], page.order);
    q = within(q, 'block_number', blocks);
    const order = orderBy([['block_number', 'desc'], ['transaction_index', 'desc'], ['trace_index', 'desc']], page.order);
    return asRows(await q.orderBy(order).limit(n)).map(toInternal);
  };
  const columns = address === undefined ? [null] : sideColumns(direction, 'from_address', ['to_address', 'created_contract']);
  const pages = [];
  for (const col of columns) pages.push(await seek(col));
  return mergePages(pages, (r) => `${r.blockHash}|${r.transactionHash}|${r.index}`, inOrderOf(internalCmp, page.order), n);
}

const internalCmp = (a: InternalTransactionRecord, b: InternalTransactionRecord) =>
  cmpNum(b.blockNumber, a.blockNumber) || cmpNum(b.transactionIndex, a.transactionIndex) || cmpNum(b.index, a.index);
