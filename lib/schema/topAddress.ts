/** `/addresses` (top accounts): an address with its coin balance and transactions count. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { NextPageParams } from './page.ts';
import { AddressHash, IntegerString, emptyList, nullable } from './scalars.ts';

/** The embedded Address fields (./address.ts) plus `coin_balance` and `transactions_count`. */
export const TopAddress = component(
  'TopAddress',
  t.type({
    hash: AddressHash,
    implementations: emptyList('proxy implementations are not indexed'),
    is_contract: t.boolean,
    is_scam: t.boolean,
    is_verified: nullable(t.boolean),
    metadata: t.null,
    name: nullable(t.string),
    proxy_type: t.null,
    reputation: t.literal('ok'),
    ens_domain_name: t.null,
    private_tags: emptyList('no tags'),
    public_tags: emptyList('no tags'),
    watchlist_names: emptyList('no watchlists'),
    coin_balance: IntegerString,
    /** the kept counter (never `""`: every listed address has one) */
    transactions_count: IntegerString,
  }),
);

export const TopAddressesPage = t.type({
  items: t.array(TopAddress),
  next_page_params: NextPageParams,
  /** no price feed: null */
  exchange_rate: t.null,
  /** no market data source for the coin's supply: null (Blockscout falls back to "0") */
  total_supply: t.null,
});
