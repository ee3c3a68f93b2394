/**
 * Everything a page's renderers look up by key, loaded with one batch query per kind.
 */
import type { AddressVerification } from '../contracts/lookup.ts';
import type { AbiIndex } from '../decode/abiIndex.ts';
import { verifiedAbiIndex } from '../decode/verifiedIndex.ts';
import { verifiedByAddress } from '../contracts/lookup.ts';
import type { ContractStore } from '../contracts/store.ts';
import type { Address, AddressRecord, AddressView, ProxyRecord, TokenInstanceRecord, TokenRecord, TokenType } from '../domain/records.ts';
import type { DataSource, TokenInstanceKey } from '../ports.ts';
import type { ProxyView } from '../proxy/view.ts';
import { implementationAbis, loadProxyView } from '../proxy/view.ts';

export interface RenderOptions {
  /** gateway prefix for ipfs:// URLs, e.g. https://ipfs.io/ipfs/ */
  readonly ipfsGateway: string;
  /** the chain's contract store: embedded addresses then show their verification (is_verified, the contract's name) */
  readonly contracts?: ContractStore;
  /** library users' ABIs (`createExplorer({ abis })`): tried after the verified ones, before the signature table */
  readonly abis?: AbiIndex;
}

export interface RenderContext extends RenderOptions {
  readonly addresses: ReadonlyMap<Address, AddressRecord>;
  /** the type of the token at each of the page's addresses that holds one (read with the addresses: decoding an ERC-721's transferFrom) */
  readonly tokenTypes?: ReadonlyMap<Address, TokenType>;
  readonly tokens: ReadonlyMap<Address, TokenRecord>;
  readonly instances: ReadonlyMap<string, TokenInstanceRecord>;
  /** highest consensus block, for confirmations */
  readonly highestBlock: number | null;
  /** the verified contract each address runs (own or a bytecode twin), with a contract store */
  readonly verified?: ReadonlyMap<Address, AddressVerification>;
  /** every verified ABI of the contract store by selector, when the page decodes (References.decode) */
  readonly verifiedAbis?: AbiIndex;
  /** the page's addresses' proxy histories (lib/proxy/view.ts) */
  readonly proxies?: ReadonlyMap<Address, readonly ProxyRecord[]>;
  /** the verified contract each of their implementations runs */
  readonly implementationsVerified?: ReadonlyMap<Address, AddressVerification>;
  /** DecodeContext.implementations: a proxy's implementations' verified ABIs at a block */
  readonly implementations?: (address: Address, block: number | null, transactionIndex: number | null) => readonly AbiIndex[];
}

export const instanceKey = (k: TokenInstanceKey): string => `${k.tokenAddress}:${k.tokenId}`;

export interface References {
  readonly addresses?: Iterable<Address | null>;
  readonly tokens?: Iterable<Address>;
  readonly instances?: Iterable<TokenInstanceKey>;
  readonly highestBlock?: boolean;
  /** the page decodes input, logs or reverts: with a contract store, every verified ABI by selector is loaded too (cached per store version) */
  readonly decode?: boolean;
}

export async function loadContext(ds: DataSource, refs: References, options: RenderOptions): Promise<RenderContext> {
  const addressSet = new Set<Address>();
  for (const a of refs.addresses ?? []) if (a !== null) addressSet.add(a);
  const tokenSet = new Set(refs.tokens ?? []);
  const instanceKeys = new Map<string, TokenInstanceKey>();
  for (const k of refs.instances ?? []) instanceKeys.set(instanceKey(k), k);
  const none: ReadonlyMap<Address, AddressVerification> = new Map();
  // the page's addresses with their token types and which are proxies, in one query
  const addressViews: Promise<readonly AddressView[]> = addressSet.size > 0 ? ds.getAddressViews([...addressSet]) : Promise.resolve([]);
  const [views, tokens, instances, highestBlock, verified, verifiedAbis, proxyView] = await Promise.all([
    addressViews,
    tokenSet.size > 0 ? ds.getTokens([...tokenSet]) : Promise.resolve([]),
    instanceKeys.size > 0 ? ds.getTokenInstances([...instanceKeys.values()]) : Promise.resolve([]),
    refs.highestBlock ? ds.getHighestBlockNumber() : Promise.resolve(null),
    // with a contract store: the page's contracts' code (one batch) and their verifications (one batch)
    addressSet.size > 0 && options.contracts !== undefined ? verifiedByAddress(ds, options.contracts, [...addressSet]) : Promise.resolve(none),
    refs.decode === true && options.contracts !== undefined ? verifiedAbiIndex(options.contracts) : Promise.resolve(undefined),
    // the page's proxies, once the address lookup has said which are (one batch, none for a page
    // without proxies) and their implementations' verifications (one batch)
    addressViews.then((found) => {
      const proxied = found.flatMap((a) => (a.proxied ? [a.hash] : []));
      return proxied.length > 0 ? loadProxyView(ds, options.contracts, proxied) : undefined;
    }),
  ]);
  return {
    ...options,
    ...addressMaps(views),
    tokens: new Map(tokens.map((t) => [t.address, t])),
    instances: new Map(instances.map((i) => [instanceKey(i), i])),
    highestBlock,
    ...(verified.size > 0 ? { verified } : {}),
    ...(verifiedAbis !== undefined ? { verifiedAbis } : {}),
    ...(proxyView === undefined || proxyView.proxies.size === 0 ? {} : proxyContext(proxyView)),
  };
}

/** The records and the token types of a page's address views. */
export function addressMaps(views: readonly AddressView[]): { addresses: ReadonlyMap<Address, AddressRecord>; tokenTypes: ReadonlyMap<Address, TokenType> } {
  const addresses = new Map<Address, AddressRecord>();
  const tokenTypes = new Map<Address, TokenType>();
  for (const v of views) {
    if (v.record !== null) addresses.set(v.hash, v.record);
    if (v.tokenType !== null) tokenTypes.set(v.hash, v.tokenType);
  }
  return { addresses, tokenTypes };
}

function proxyContext(view: ProxyView): Pick<RenderContext, 'proxies' | 'implementationsVerified' | 'implementations'> {
  return { proxies: view.proxies, implementationsVerified: view.implementationsVerified, implementations: implementationAbis(view) };
}
