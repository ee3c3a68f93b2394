/** listLogs: all, by emitter, or one transaction. */
import type { LogRecord } from '../../../lib/domain/records.ts';
import type { LogCursor, LogFilter, Page } from '../../../lib/ports.ts';
import { asRows, toLog } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { orderBy, pageSize, past, within } from './seek.ts';

export async function listLogs(c: SqlContext, filter: LogFilter, page: Page<LogCursor>): Promise<readonly LogRecord[]> {
  const { knex } = c;
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const { transactionHash, address, blocks } = filter;
  const at = page.after;
  if (transactionHash !== undefined) {
    let q = knex('logs').where('transaction_hash', transactionHash);
    if (address !== undefined) q = q.andWhere('address', address);
    if (at !== null) q = past(q, ['log_index'], [at.index], page.order);
    q = within(q, 'block_number', blocks);
    return asRows(await q.orderBy(orderBy([['log_index', 'desc']], page.order)).limit(n)).map(toLog);
  }
  let q = address === undefined ? knex('logs') : knex('logs').where('address', address);
  if (at !== null) q = past(q, ['block_number', 'log_index'], [at.blockNumber, at.index], page.order);
  q = within(q, 'block_number', blocks);
  return asRows(await q.orderBy(orderBy([['block_number', 'desc'], ['log_index', 'desc']], page.order)).limit(n)).map(toLog);
}
