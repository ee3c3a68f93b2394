/** Proxies: every implementation change of the asked addresses, oldest first. */
import type { ProxyRecord } from '../../../lib/domain/records.ts';
import { proxyHistoryOrder } from '../../../lib/proxy/history.ts';
import type { VersionedDataSource } from '../../../lib/ports.ts';
import type { MemoryReadContext } from './context.ts';

export function proxyQueries({ s }: MemoryReadContext): Pick<VersionedDataSource, 'getProxyHistory'> {
  return {
    async getProxyHistory(addresses) {
      const out: ProxyRecord[] = [];
      for (const a of new Set(addresses)) out.push(...s.proxies.entries(a).map((e) => e.value));
      return out.sort(proxyHistoryOrder);
    },
  };
}
