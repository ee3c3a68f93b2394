/** The embedded Address object, as lib/render/address.ts renders it. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { AddressHash, emptyList, nullable } from './scalars.ts';

/** The embedded Address object's fields (also the base of TopAddress). */
/** A proxy's implementation as Blockscout embeds it: the name once verified (own or a bytecode twin's). */
export const ProxyImplementation = t.type({ address_hash: AddressHash, name: nullable(t.string) });
export const ProxyImplementations = t.readonlyArray(ProxyImplementation);
/** Blockscout's proxy_type names for the kinds the indexer recognizes (lib/proxy/detect.ts) */
export const ProxyTypeName = nullable(
  t.keyof({ eip1167: null, minimal_proxy: null, eip7702: null, master_copy: null, eip1967: null, eip1822: null, eip1967_beacon: null, eip2535: null, eip1967_oz: null, basic_implementation: null }),
);

export const ADDRESS_FIELDS = {
  hash: AddressHash,
  implementations: ProxyImplementations,
  is_contract: t.boolean,
  is_scam: t.boolean,
  /** null when the store has no row for the address */
  is_verified: nullable(t.boolean),
  metadata: t.null,
  name: nullable(t.string),
  proxy_type: ProxyTypeName,
  reputation: t.literal('ok'),
  ens_domain_name: t.null,
  private_tags: emptyList('no tags'),
  public_tags: emptyList('no tags'),
  watchlist_names: emptyList('no watchlists'),
} as const;

export const Address = component('Address', t.type(ADDRESS_FIELDS));
