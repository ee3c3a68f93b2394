/**
 * Proxies as the renderers and the decoder see them: a page's addresses' proxy histories and
 * their implementations' verifications, loaded in two batch queries per page (no round trip
 * per row); the `proxy_type` / `implementations` fields; the implementations' ABIs at a block.
 */
import type { AddressVerification } from '../contracts/lookup.ts';
import { verifiedByAddress } from '../contracts/lookup.ts';
import type { ContractStore } from '../contracts/store.ts';
import type { AbiIndex } from '../decode/abiIndex.ts';
import { indexAbiKeyed } from '../decode/abiIndex.ts';
import type { Address, ProxyRecord } from '../domain/records.ts';
import type { DataSource } from '../ports.ts';
import { checksum } from '../render/format.ts';
import type { ResolvedProxy } from './history.ts';
import { resolveProxy } from './history.ts';

export interface ProxyView {
  /** each proxy's changes, oldest first (only addresses that have some), and their beacons' */
  readonly proxies: ReadonlyMap<Address, readonly ProxyRecord[]>;
  /** the verified contract each implementation runs (own or a bytecode twin), with a contract store */
  readonly implementationsVerified: ReadonlyMap<Address, AddressVerification>;
}

const NO_VERIFICATION: ReadonlyMap<Address, AddressVerification> = new Map();

/**
 * The histories of `addresses`, then of the beacons they name that are not among them (a second
 * batch only when there are some); none from a store without getProxyHistory (every address
 * answers as no proxy).
 */
async function histories(ds: DataSource, addresses: readonly Address[]): Promise<readonly ProxyRecord[]> {
  if (ds.getProxyHistory === undefined) return [];
  const history = addresses.length === 0 ? [] : await ds.getProxyHistory(addresses);
  const asked = new Set(addresses);
  const beacons = [...new Set(history.flatMap((r) => (r.beacon === null || asked.has(r.beacon) ? [] : [r.beacon])))];
  return beacons.length === 0 ? history : [...history, ...(await ds.getProxyHistory(beacons))];
}

export async function loadProxyView(ds: DataSource, store: ContractStore | undefined, addresses: readonly Address[]): Promise<ProxyView> {
  const history = await histories(ds, addresses);
  const proxies = new Map<Address, ProxyRecord[]>();
  for (const r of history) {
    const list = proxies.get(r.proxy);
    if (list === undefined) proxies.set(r.proxy, [r]);
    else list.push(r);
  }
  const implementations = [...new Set(history.flatMap((r) => r.implementations))];
  const implementationsVerified = store === undefined || implementations.length === 0 ? NO_VERIFICATION : await verifiedByAddress(ds, store, implementations);
  return { proxies, implementationsVerified };
}

/**
 * The change in force for `address` when transaction `transactionIndex` of `block` starts (a
 * null block: the latest; a null index: the end of the block), or null when it is no proxy then.
 */
export function proxyOf(view: Partial<ProxyView>, address: Address, block: number | null = null, transactionIndex: number | null = null): ResolvedProxy | null {
  const proxies = view.proxies;
  if (proxies?.has(address) !== true) return null;
  return block === null ? resolveProxy(proxies, address) : resolveProxy(proxies, address, block, transactionIndex === null ? undefined : transactionIndex - 1);
}

/** Blockscout's `proxy_type` and `implementations` (`[{address_hash, name}]`, the name once verified) of an address, now. */
/** The proxy fields of the embedded Address object (and of a smart contract). */
export interface ProxyFields {
  readonly proxy_type: ProxyRecord['type'] | null;
  readonly implementations: { address_hash: string; name: string | null }[];
}

export function proxyFields(view: Partial<ProxyView>, address: Address): ProxyFields {
  const current = proxyOf(view, address);
  if (current === null) return { proxy_type: null, implementations: [] };
  return {
    proxy_type: current.type,
    implementations: current.implementations.map((a) => ({ address_hash: checksum(a), name: view.implementationsVerified?.get(a)?.contract.name ?? null })),
  };
}

/** A diamond facet's ABI answers only for the selectors routed to it. */
const routed = (index: AbiIndex, facet: Address, routes: ReadonlyMap<string, Address>): AbiIndex => ({
  functions: (s) => (routes.get(s) === facet ? index.functions(s) : []),
  errors: (s) => index.errors(s),
  events: (t) => index.events(t),
});

/** DecodeContext.implementations: the verified ABIs of the implementations a proxy delegates to at a block (a diamond's by selector). */
export function implementationAbis(view: ProxyView): (address: Address, block: number | null, transactionIndex: number | null) => readonly AbiIndex[] {
  return (address, block, transactionIndex) => {
    const current = proxyOf(view, address, block, transactionIndex);
    if (current === null) return [];
    const out: AbiIndex[] = [];
    for (const a of current.implementations) {
      const c = view.implementationsVerified.get(a)?.contract;
      if (c === undefined) continue;
      const index = indexAbiKeyed(`${c.codeHash}:${c.id}:${c.match}`, c.abi);
      out.push(current.routes === undefined ? index : routed(index, a, current.routes));
    }
    return out;
  };
}
