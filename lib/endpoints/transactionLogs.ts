/** GET /transactions/{transaction_hash_param}/logs — log index ASC. */
import * as E from 'fp-ts/lib/Either.js';
import type { LogRecord } from '../domain/records.ts';
import { notFound } from '../errors.ts';
import { fullHash, integer } from '../params/codecs.ts';
import { itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import { loadContext } from '../render/context.ts';
import { renderLog } from '../render/log.ts';
import { defineEndpoint } from './endpoint.ts';
import { Log } from '../schema/log.ts';
import { page } from '../schema/page.ts';

export const transactionLogs = defineEndpoint({
  route: '/transactions/{transaction_hash_param}/logs',
  summary: 'Event logs of a transaction',
  path: { transaction_hash_param: fullHash },
  query: { index: integer(), block_number: integer({ min: 0 }), items_count: itemsCount },
  response: page(Log),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () => {
      const tx = await ds.getTransaction(path.transaction_hash_param);
      if (tx === null) return E.left(notFound);
      const size = pageSize(query);
      const after = query.index === undefined ? null : { blockNumber: tx.blockNumber ?? 0, index: query.index };
      const probe = await ds.listLogs({ transactionHash: tx.hash }, { after, limit: size + 1, order: 'asc' });
      const { rows, last } = splitPage<LogRecord>(probe, size);
      const ctx = await loadContext(ds, { addresses: rows.map((l) => l.address), decode: true }, render);
      return E.right(
        listBody(
          rows.map((l) => renderLog(l, ctx)),
          last === null ? null : { block_number: last.blockNumber, index: last.index, items_count: size },
        ),
      );
    },
});
