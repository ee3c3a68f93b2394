/**
 * GET /blocks/{block_hash_or_number_param}/transactions — the block's transactions by position
 * (index ASC, keyset `index > I`); `type`: one transaction kind.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { TransactionRecord } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';
import { blockHashOrNumber, enumOf, integer, TRANSACTION_TYPE_FILTER_VALUES } from '../params/codecs.ts';
import { itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { TransactionCursor } from '../ports.ts';
import { loadContext } from '../render/context.ts';
import { renderTransaction, transactionRefs } from '../render/transaction.ts';
import { blockOfPath } from './blockOfPath.ts';
import { defineEndpoint } from './endpoint.ts';
import { page } from '../schema/page.ts';
import { Transaction } from '../schema/transaction.ts';

export const blockTransactions = defineEndpoint({
  route: '/blocks/{block_hash_or_number_param}/transactions',
  summary: 'Transactions of a block, by position',
  path: { block_hash_or_number_param: blockHashOrNumber },
  query: {
    type: enumOf(TRANSACTION_TYPE_FILTER_VALUES),
    block_number: integer({ min: 0 }),
    index: integer(),
    items_count: itemsCount,
  },
  response: page(Transaction),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () => {
      const found = await blockOfPath(ds, path.block_hash_or_number_param);
      if (E.isLeft(found)) return found;
      const b = found.right;
      // the lists hold consensus rows only: a block that lost consensus (named by hash) lists none
      if (!b.consensus) return E.right(listBody([], null));
      const size = pageSize(query);
      // Blockscout pages by position alone; block_number is sent back but not read
      const after: TransactionCursor | null = query.index === undefined ? null : { blockNumber: b.number, index: query.index };
      const filter = {
        status: 'validated' as const,
        blocks: { from: b.number, to: b.number },
        ...(query.type === undefined ? {} : { kinds: [query.type] }),
      };
      const probe = await ds.listTransactions(filter, { after, limit: size + 1, order: 'asc' });
      const { rows, last } = splitPage<TransactionRecord>(probe, size);
      const ctx = await loadContext(ds, transactionRefs(rows), render);
      const next: JsonObject | null = last === null ? null : { block_number: b.number, index: last.index, items_count: size };
      return E.right(listBody(rows.map((tx) => renderTransaction(tx, ctx, { tokenTransfers: null, detail: false })), next));
    },
});
