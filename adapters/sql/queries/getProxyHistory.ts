/** getProxyHistory: proxies' implementation changes by address, oldest first (batch lookup, one prepared statement per chunk size). */
import type { Address, ProxyRecord } from '../../../lib/domain/records.ts';
import { proxyHistoryOrder } from '../../../lib/proxy/history.ts';
import { toProxy } from '../rows.ts';
import { KEY_CHUNK, chunks, keyListStatement } from '../sql.ts';
import type { SqlContext } from './context.ts';

const byProxies = keyListStatement((keys) => `select * from proxy_implementations where proxy in ${keys}`);

export async function getProxyHistory(c: SqlContext, addresses: readonly Address[]): Promise<readonly ProxyRecord[]> {
  const parts = await Promise.all(chunks([...new Set(addresses)], KEY_CHUNK).map((part) => c.raw(byProxies(part.length), part)));
  const out = parts.flatMap((rows) => rows.map(toProxy));
  return out.sort(proxyHistoryOrder);
}
