/** getProxyHistory: proxies' implementation changes by address, oldest first (batch lookup). */
import type { Address, ProxyRecord } from '../../../lib/domain/records.ts';
import { asRows, toProxy } from '../rows.ts';
import { KEY_CHUNK, chunks } from '../sql.ts';
import type { SqlContext } from './context.ts';

export async function getProxyHistory(c: SqlContext, addresses: readonly Address[]): Promise<readonly ProxyRecord[]> {
  const out: ProxyRecord[] = [];
  for (const part of chunks([...new Set(addresses)], KEY_CHUNK)) {
    const rows = await c.knex('proxy_implementations').whereIn('proxy', part).orderBy([
      { column: 'proxy', order: 'asc' },
      { column: 'block_number', order: 'asc' },
      { column: 'transaction_index', order: 'asc' },
    ]);
    out.push(...asRows(rows).map(toProxy));
  }
  return out.sort((a, b) => a.blockNumber - b.blockNumber || a.transactionIndex - b.transactionIndex);
}
