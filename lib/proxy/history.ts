/**
 * A proxy's implementation at a point of the chain, from its stored history of changes
 * (DataSource.getProxyHistory). Pure.
 */
import type { Address, ProxyRecord } from '../domain/records.ts';

const before = (r: ProxyRecord, blockNumber: number, transactionIndex: number): boolean =>
  r.blockNumber < blockNumber || (r.blockNumber === blockNumber && r.transactionIndex <= transactionIndex);

/** The last change of `proxy` up to the point, whatever it points at. */
function latestAt(history: readonly ProxyRecord[], proxy: Address, blockNumber: number, transactionIndex: number): ProxyRecord | null {
  let found: ProxyRecord | null = null;
  for (const r of history) {
    if (r.proxy !== proxy || !before(r, blockNumber, transactionIndex)) continue;
    if (found === null || !before(r, found.blockNumber, found.transactionIndex - 1)) found = r;
  }
  return found;
}

/** getProxyHistory's order (lib/ports.ts): oldest first by block and transaction index, then by proxy. */
export function proxyHistoryOrder(a: ProxyRecord, b: ProxyRecord): number {
  return a.blockNumber - b.blockNumber || a.transactionIndex - b.transactionIndex || (a.proxy < b.proxy ? -1 : a.proxy > b.proxy ? 1 : 0);
}

/**
 * The change in force for `proxy` after transaction `transactionIndex` of block `blockNumber`
 * (default: the latest), or null when there is none or the last one points nowhere (a slot
 * cleared, a delegation revoked). A beacon proxy's record as stored (see resolveProxy).
 */
export function proxyAt(
  history: readonly ProxyRecord[],
  proxy: Address,
  blockNumber: number = Number.MAX_SAFE_INTEGER,
  transactionIndex: number = Number.MAX_SAFE_INTEGER,
): ProxyRecord | null {
  const found = latestAt(history, proxy, blockNumber, transactionIndex);
  return found === null || (found.implementations.length === 0 && found.beacon === null) ? null : found;
}

/** A proxy resolved at a point: a diamond's selectors routed to their facets. */
export interface ResolvedProxy extends ProxyRecord {
  /** `eip2535`: each selector's facet (`0x` + 8 lower-case hex) */
  readonly routes?: ReadonlyMap<string, Address>;
}

const ZERO = /^0x0*$/;

/**
 * A diamond's selectors after every cut of its history up to the point, oldest first, and its
 * facets in the order they were first added (as the reference diamond's `facetAddresses()`).
 */
function diamondRoutes(history: readonly ProxyRecord[], proxy: Address, blockNumber: number, transactionIndex: number): { routes: Map<string, Address>; facets: Address[] } {
  const routes = new Map<string, Address>();
  const order = new Map<Address, number>();
  for (const r of history) {
    if (r.proxy !== proxy || r.type !== 'eip2535' || !before(r, blockNumber, transactionIndex)) continue;
    for (const cut of r.cuts ?? []) {
      for (const s of cut.selectors) {
        if (cut.action === 2 || ZERO.test(cut.facet)) routes.delete(s);
        else {
          routes.set(s, cut.facet);
          if (!order.has(cut.facet)) order.set(cut.facet, order.size);
        }
      }
    }
  }
  const facets = [...new Set(routes.values())].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  return { routes, facets };
}

/**
 * What `proxy` delegates to after transaction `transactionIndex` of block `blockNumber` (default:
 * the latest), from the histories of the proxy and of its beacon: a beacon proxy's implementations
 * are the beacon's in force at that point (a beacon upgraded later changes them from then on); a
 * diamond's are the facets of its selectors, every `DiamondCut` up to the point folded. Null when
 * it is no proxy then. `histories`: each address's changes, oldest first.
 */
export function resolveProxy(
  histories: ReadonlyMap<Address, readonly ProxyRecord[]>,
  proxy: Address,
  blockNumber: number = Number.MAX_SAFE_INTEGER,
  transactionIndex: number = Number.MAX_SAFE_INTEGER,
): ResolvedProxy | null {
  const history = histories.get(proxy) ?? [];
  const current = latestAt(history, proxy, blockNumber, transactionIndex);
  if (current === null) return null;
  if (current.type === 'eip2535') {
    const { routes, facets } = diamondRoutes(history, proxy, blockNumber, transactionIndex);
    return routes.size === 0 ? null : { ...current, implementations: facets.filter((a) => a !== proxy), routes };
  }
  if (current.beacon !== null) {
    const beacon = proxyAt(histories.get(current.beacon) ?? [], current.beacon, blockNumber, transactionIndex);
    return { ...current, implementations: (beacon?.implementations ?? []).filter((a) => a !== proxy) };
  }
  return current.implementations.length === 0 ? null : current;
}
