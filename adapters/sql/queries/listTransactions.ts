/** listTransactions: validated (block_number, tx_index) and pending (inserted_at DESC, hash ASC) seeks, one per OR branch. */
import type { Knex } from 'knex';
import type { Hash, TransactionRecord } from '../../../lib/domain/records.ts';
import { TRANSACTION_KINDS } from '../../../lib/domain/records.ts';
import type { Order, Page, TransactionCursor, TransactionFilter } from '../../../lib/ports.ts';
import { kindCode, toTransaction } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { cmpNum, cmpStr, inOrderOf, mergePages, orderBy, pageSize, past, seekPages, sideColumns, within } from './seek.ts';

export async function listTransactions(c: SqlContext, filter: TransactionFilter, page: Page<TransactionCursor>): Promise<readonly TransactionRecord[]> {
  const after = page.after;
  const n = pageSize(page.limit);
  if (filter.status === 'pending') {
    if (after !== null && !('insertedAt' in after)) throw new TypeError('pending transactions take an {insertedAt, hash} cursor');
    return n === 0 ? [] : listPending(c, filter, after, n, page.order);
  }
  if (after !== null && !('blockNumber' in after)) throw new TypeError('validated transactions take a {blockNumber, index} cursor');
  return n === 0 ? [] : listValidated(c, filter, after, n, page.order);
}

const minedCmp = (a: TransactionRecord, b: TransactionRecord) =>
  cmpNum(b.blockNumber ?? -1, a.blockNumber ?? -1) || cmpNum(b.index ?? -1, a.index ?? -1);
const pendingCmp = (a: TransactionRecord, b: TransactionRecord) => cmpNum(b.insertedAt, a.insertedAt) || cmpStr(a.hash, b.hash);

/** kinds (OR) as a row condition on the JSON text column; null when no kind can match */
function kindsCondition(q: Knex.QueryBuilder, kinds: readonly string[] | undefined): Knex.QueryBuilder | null {
  if (kinds === undefined) return q;
  const known = [...new Set(kinds)].filter((k) => (TRANSACTION_KINDS as readonly string[]).includes(k));
  if (known.length === 0) return null;
  return q.where((w) => {
    for (const k of known) w.orWhere('kinds', 'like', `%"${k}"%`);
  });
}

async function listValidated(c: SqlContext, filter: TransactionFilter, after: { blockNumber: number; index: number } | null, n: number, order: Order) {
  const { knex } = c;
  const cursor = (q: Knex.QueryBuilder, bn: string, ix: string) => (after === null ? q : past(q, [bn, ix], [after.blockNumber, after.index], order));
  const methods = filter.methodIds === undefined ? undefined : [...new Set(filter.methodIds)];
  // one seek per OR branch, all run in one statement (seekPages)
  const branches: Knex.QueryBuilder[] = [];
  const seek = (q: Knex.QueryBuilder, bn: string, ix: string) => branches.push(q.orderBy(orderBy([[bn, 'desc'], [ix, 'desc']], order)).limit(n));
  if (filter.address !== undefined) {
  // one seek per side column of the address; kinds and method ids narrow each row
  for (const column of sideColumns(filter.direction, 'from_address', ['to_address', 'created_contract'])) {
    let q: Knex.QueryBuilder | null = knex('transactions').where({ consensus: true, [column]: filter.address });
    q = kindsCondition(q, filter.kinds);
    if (q === null) return [];
    if (methods !== undefined) q = q.whereIn('method_id', methods);
    seek(within(cursor(q, 'block_number', 'tx_index'), 'block_number', filter.blocks), 'block_number', 'tx_index');
  }
  } else if (filter.kinds !== undefined) {
  for (const kind of new Set(filter.kinds)) {
    if (!TRANSACTION_KINDS.includes(kind)) continue;
    let q = knex('transaction_kinds as k')
      .join('transactions as t', (j) => j.on('t.block_hash', 'k.block_hash').andOn('t.tx_index', 'k.tx_index'))
      .select('t.*')
      .where('k.kind', kindCode(kind));
    q = within(cursor(q, 'k.block_number', 'k.tx_index'), 'k.block_number', filter.blocks);
    if (methods !== undefined) q = q.whereIn('t.method_id', methods);
    seek(q, 'k.block_number', 'k.tx_index');
  }
  } else if (methods !== undefined) {
  for (const m of methods) {
    const q = cursor(knex('transactions').where({ consensus: true, method_id: m }), 'block_number', 'tx_index');
    seek(within(q, 'block_number', filter.blocks), 'block_number', 'tx_index');
  }
  } else {
  const q = cursor(knex('transactions').where('consensus', true), 'block_number', 'tx_index');
  seek(within(q, 'block_number', filter.blocks), 'block_number', 'tx_index');
  }
  if (branches.length === 0) return [];
  const pages = (await seekPages(knex, branches)).map((rows) => rows.map(toTransaction));
  return mergePages(pages, (t) => `${t.blockHash}|${t.hash}`, inOrderOf(minedCmp, order), n);
}

async function listPending(c: SqlContext, filter: TransactionFilter, after: { insertedAt: number; hash: Hash } | null, n: number, order: Order) {
  const { knex } = c;
  // a pending transaction is in no block, so no block range holds one
  if (filter.blocks !== undefined) return [];
  const [older, hashSide] = order === 'desc' ? (['<', '>'] as const) : (['>', '<'] as const);
  const seek = (column: string | null): Knex.QueryBuilder | null => {
  let q: Knex.QueryBuilder | null = knex('pending_transactions');
  if (column !== null) q = q.where(column, filter.address);
  if (after !== null) {
    q = q.where((w) =>
      w.where('inserted_at', older, after.insertedAt).orWhere((w2) => w2.where('inserted_at', after.insertedAt).andWhere('hash', hashSide, after.hash)),
    );
  }
  q = kindsCondition(q, filter.kinds);
  if (q === null) return null;
  if (filter.methodIds !== undefined) {
    if (filter.methodIds.length === 0) return null;
    q = q.whereIn('method_id', [...filter.methodIds]);
  }
  return q.orderBy(orderBy([['inserted_at', 'desc'], ['hash', 'asc']], order)).limit(n);
  };
  const columns = filter.address === undefined ? [null] : sideColumns(filter.direction, 'from_address', ['to_address', 'created_contract']);
  const branches: Knex.QueryBuilder[] = [];
  for (const c of columns) {
  const q = seek(c);
  if (q === null) return [];
  branches.push(q);
  }
  const pages = (await seekPages(knex, branches)).map((rows) => rows.map(toTransaction));
  return mergePages(pages, (t) => t.hash, inOrderOf(pendingCmp, order), n);
}
