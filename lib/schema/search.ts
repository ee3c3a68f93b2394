/** The search answers (lib/search/): items by `type`, the /search page, check-redirect. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { page } from './page.ts';
import { AddressHash, FullHash, Integer, IntegerString, Timestamp, TokenTypeCodec, nullable, TransactionHashCodec, BlockHashCodec } from './scalars.ts';

const common = {
  certified: t.boolean,
  reputation: t.literal('ok'),
  priority: Integer,
};

export const SearchToken = t.type({
  type: t.literal('token'),
  name: nullable(t.string),
  symbol: nullable(t.string),
  address_hash: AddressHash,
  token_url: t.string,
  address_url: t.string,
  icon_url: nullable(t.string),
  token_type: TokenTypeCodec,
  exchange_rate: nullable(t.string),
  total_supply: nullable(IntegerString),
  circulating_market_cap: t.null,
  is_verified_via_admin_panel: t.boolean,
  is_smart_contract_verified: t.boolean,
  is_smart_contract_address: t.literal(true),
  ...common,
});

/** `address` and `contract` results (no ENS: ens_info is null). */
export const SearchAddress = t.type({
  type: t.union([t.literal('address'), t.literal('contract')]),
  name: nullable(t.string),
  address_hash: AddressHash,
  url: t.string,
  is_smart_contract_verified: t.boolean,
  is_smart_contract_address: t.boolean,
  ens_info: t.null,
  ...common,
});

export const SearchBlock = t.type({
  type: t.literal('block'),
  block_number: Integer,
  block_hash: BlockHashCodec,
  url: t.string,
  timestamp: Timestamp,
  block_type: t.union([t.literal('block'), t.literal('reorg')]),
  priority: Integer,
});

export const SearchTransaction = t.type({
  type: t.literal('transaction'),
  transaction_hash: TransactionHashCodec,
  url: t.string,
  timestamp: nullable(Timestamp),
  priority: Integer,
});

/** An ERC-4337 user operation found by its hash (Blockscout: from its user-ops-indexer; no url). */
export const SearchUserOperation = t.type({
  type: t.literal('user_operation'),
  user_operation_hash: FullHash,
  timestamp: Timestamp,
  priority: Integer,
});

export const SearchItem = component('SearchItem', t.union([SearchToken, SearchAddress, SearchBlock, SearchTransaction, SearchUserOperation]));

export const SearchPage = component('SearchResult', page(SearchItem));

export const SearchQuick = t.readonlyArray(SearchItem);

export const SearchRedirect = component(
  'SearchRedirect',
  t.type({
    redirect: t.boolean,
    type: nullable(t.union([t.literal('address'), t.literal('block'), t.literal('transaction'), t.literal('user_operation')])),
    parameter: nullable(t.string),
  }),
);
