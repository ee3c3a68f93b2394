/** `/addresses` (top accounts): an address with its coin balance and transactions count. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { NextPageParams } from './page.ts';
import { ADDRESS_FIELDS } from './address.ts';
import { IntegerString } from './scalars.ts';

/** The embedded Address fields (./address.ts) plus `coin_balance` and `transactions_count`. */
export const TopAddress = component(
  'TopAddress',
  t.type({
    ...ADDRESS_FIELDS,
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
