/** The embedded Address object, as lib/render/address.ts renders it. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { AddressHash, emptyList, nullable } from './scalars.ts';

/** The embedded Address object's fields (also the base of TopAddress). */
export const ADDRESS_FIELDS = {
  hash: AddressHash,
  implementations: emptyList('proxy implementations are not indexed'),
  is_contract: t.boolean,
  is_scam: t.boolean,
  /** null when the store has no row for the address */
  is_verified: nullable(t.boolean),
  metadata: t.null,
  name: nullable(t.string),
  proxy_type: t.null,
  reputation: t.literal('ok'),
  ens_domain_name: t.null,
  private_tags: emptyList('no tags'),
  public_tags: emptyList('no tags'),
  watchlist_names: emptyList('no watchlists'),
} as const;

export const Address = component('Address', t.type(ADDRESS_FIELDS));
