/**
 * GET /blocks/{block_hash_or_number_param}/internal-transactions — the block's traces in
 * (transaction_index ASC, index ASC), top calls left out. `internal_type` and `call_type` are
 * accepted and, as in Blockscout, not applied.
 */
import * as E from 'fp-ts/lib/Either.js';
import { blockHashOrNumber, boolean, enumOf, integer } from '../params/codecs.ts';
import { itemsCount } from '../paging/page.ts';
import type { InternalTransactionCursor } from '../ports.ts';
import { blockOfPath } from './blockOfPath.ts';
import { defineEndpoint } from './endpoint.ts';
import { renderInternalPage } from './internalTransactionPage.ts';
import { InternalTransaction } from '../schema/internal.ts';
import { page, pageWithMeta } from '../schema/page.ts';

export const blockInternalTransactions = defineEndpoint({
  route: '/blocks/{block_hash_or_number_param}/internal-transactions',
  summary: 'Internal transactions of a block, in transaction and trace order',
  path: { block_hash_or_number_param: blockHashOrNumber },
  query: {
    internal_type: enumOf(['call', 'create', 'create2', 'reward', 'selfdestruct', 'stop'] as const),
    call_type: enumOf(['call', 'callcode', 'delegatecall', 'staticcall'] as const),
    transaction_index: integer(),
    index: integer(),
    items_count: itemsCount,
    include_zero_value: boolean,
  },
  response: page(InternalTransaction),
  multichainResponse: pageWithMeta(InternalTransaction),
  handler:
    ({ ds, render, form }) =>
    ({ path, query }) =>
    async () => {
      const found = await blockOfPath(ds, path.block_hash_or_number_param);
      if (E.isLeft(found)) return found;
      const b = found.right;
      const first: InternalTransactionCursor | null =
        query.transaction_index === undefined || query.index === undefined
          ? null
          : { blockNumber: b.number, transactionIndex: query.transaction_index, index: query.index };
      // the lists hold consensus rows only: a block that lost consensus (named by hash) lists none
      const list = (after: InternalTransactionCursor | null, limit: number) =>
        b.consensus ? ds.listInternalTransactions({ blocks: { from: b.number, to: b.number } }, { after, limit, order: 'asc' }) : Promise.resolve([]);
      // Blockscout's keys here carry no block_number
      return E.right(
        await renderInternalPage(ds, list, first, query, render, form, (last, size) => ({
          index: last.index,
          items_count: size,
          transaction_index: last.transactionIndex,
        })),
      );
    },
});
