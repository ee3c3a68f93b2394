/**
 * GET /transactions — validated (block_number DESC, index DESC) or pending (inserted_at DESC,
 * hash ASC); `type` (transaction kinds, OR) and `method` (selectors or known names) filters.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { TransactionRecord } from '../domain/records.ts';
import { dateTime, enumOf, fullHash, integer, methodList, transactionKindList } from '../params/codecs.ts';
import { echo, itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { TransactionCursor } from '../ports.ts';
import { loadContext } from '../render/context.ts';
import { renderTransaction, transactionRefs } from '../render/transaction.ts';
import type { JsonObject } from '../json.ts';
import { defineEndpoint } from './endpoint.ts';
import { page } from '../schema/page.ts';
import { Transaction } from '../schema/transaction.ts';

export const transactions = defineEndpoint({
  route: '/transactions',
  summary: 'Validated or pending transactions, newest first',
  path: {},
  query: {
    filter: enumOf(['validated', 'pending'] as const),
    type: transactionKindList,
    method: methodList,
    block_number: integer({ min: 0 }),
    index: integer(),
    items_count: itemsCount,
    hash: fullHash,
    inserted_at: dateTime,
  },
  response: page(Transaction),
  handler:
    ({ ds, render }) =>
    ({ query, rawQuery }) =>
    async () => {
      const status = query.filter ?? 'validated';
      const size = pageSize(query);
      let after: TransactionCursor | null = null;
      if (status === 'validated' && query.block_number !== undefined) {
        after = { blockNumber: query.block_number, index: query.index ?? Number.MAX_SAFE_INTEGER };
      } else if (status === 'pending' && query.inserted_at !== undefined && query.hash !== undefined) {
        after = { insertedAt: query.inserted_at, hash: query.hash };
      }
      const filter = {
        status,
        ...(query.type !== undefined && query.type.length > 0 ? { kinds: query.type } : {}),
        ...(query.method !== undefined && query.method.length > 0 ? { methodIds: query.method } : {}),
      };
      const probe = await ds.listTransactions(filter, { after, limit: size + 1, order: 'desc' });
      const { rows, last } = splitPage<TransactionRecord>(probe, size);
      const ctx = await loadContext(ds, transactionRefs(rows), render);
      const items = rows.map((tx) => renderTransaction(tx, ctx, { tokenTransfers: null, detail: false }));
      let next: JsonObject | null = null;
      if (last !== null) {
        next =
          status === 'pending'
            ? { ...echo(rawQuery, ['filter']), hash: last.hash, inserted_at: new Date(last.insertedAt).toISOString(), items_count: size }
            : { ...echo(rawQuery, ['filter']), block_number: last.blockNumber, index: last.index, items_count: size };
      }
      return E.right(listBody(items, next));
    },
});
