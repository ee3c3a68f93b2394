/**
 * GET /addresses/{address_hash_param}/logs — logs emitted by an address, newest first
 * (block_number DESC, index DESC); `topic` matches any of the four topics.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { LogRecord } from '../domain/records.ts';
import { addressHash, integer, topicOrNull } from '../params/codecs.ts';
import { collect, echo, itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { LogCursor } from '../ports.ts';
import { loadContext } from '../render/context.ts';
import { renderLog } from '../render/log.ts';
import { Log } from '../schema/log.ts';
import { page } from '../schema/page.ts';
import { defineEndpoint } from './endpoint.ts';

export const addressLogs = defineEndpoint({
  route: '/addresses/{address_hash_param}/logs',
  summary: 'Event logs emitted by an address, newest first',
  path: { address_hash_param: addressHash },
  query: { topic: topicOrNull, block_number: integer({ min: 0 }), index: integer(), items_count: itemsCount },
  response: page(Log),
  handler:
    ({ ds, render }) =>
    ({ path, query, rawQuery }) =>
    async () => {
      const size = pageSize(query);
      const after: LogCursor | null =
        query.block_number === undefined ? null : { blockNumber: query.block_number, index: query.index ?? Number.MAX_SAFE_INTEGER };
      const filter = { address: path.address_hash_param };
      const topic = query.topic ?? null;
      // the topic narrows the emitter's logs (a scan of that emitter's logs, as Blockscout's query)
      const probe =
        topic === null
          ? await ds.listLogs(filter, { after, limit: size + 1, order: 'desc' })
          : await collect<LogRecord, LogCursor>(
              (a, limit) => ds.listLogs(filter, { after: a, limit, order: 'desc' }),
              (l) => ({ blockNumber: l.blockNumber, index: l.index }),
              after,
              size + 1,
              (l) => l.topics.includes(topic),
            );
      const { rows, last } = splitPage<LogRecord>(probe, size);
      const ctx = await loadContext(ds, { addresses: rows.map((l) => l.address), decode: true }, render);
      return E.right(
        listBody(
          rows.map((l) => renderLog(l, ctx)),
          last === null ? null : { ...echo(rawQuery, ['topic']), block_number: last.blockNumber, index: last.index, items_count: size },
        ),
      );
    },
});
