/**
 * A proxy's implementation at a point of the chain, from its stored history of changes
 * (DataSource.getProxyHistory). Pure.
 */
import type { Address, ProxyRecord } from '../domain/records.ts';

const before = (r: ProxyRecord, blockNumber: number, transactionIndex: number): boolean =>
  r.blockNumber < blockNumber || (r.blockNumber === blockNumber && r.transactionIndex <= transactionIndex);

/**
 * The change in force for `proxy` after transaction `transactionIndex` of block `blockNumber`
 * (default: the latest), or null when there is none or the last one points nowhere (a slot
 * cleared, a delegation revoked).
 */
export function proxyAt(
  history: readonly ProxyRecord[],
  proxy: Address,
  blockNumber: number = Number.MAX_SAFE_INTEGER,
  transactionIndex: number = Number.MAX_SAFE_INTEGER,
): ProxyRecord | null {
  let found: ProxyRecord | null = null;
  for (const r of history) {
    if (r.proxy !== proxy || !before(r, blockNumber, transactionIndex)) continue;
    if (found === null || !before(r, found.blockNumber, found.transactionIndex - 1)) found = r;
  }
  return found === null || (found.implementations.length === 0 && found.beacon === null) ? null : found;
}
