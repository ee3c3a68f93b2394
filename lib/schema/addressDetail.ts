/** The address detail (`/addresses/{h}`), as lib/endpoints/address.ts renders it. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { AddressHash, Integer, IntegerString, emptyList, nullable, TransactionHashCodec } from './scalars.ts';
import { Token } from './token.ts';
import { ProxyImplementations, ProxyTypeName } from './address.ts';

export const AddressDetail = component(
  'AddressDetail',
  t.type({
    block_number_balance_updated_at: nullable(Integer),
    coin_balance: nullable(IntegerString),
    creation_status: t.union([t.literal('success'), t.literal('failed'), t.literal('selfdestructed'), t.null]),
    creation_transaction_hash: nullable(TransactionHashCodec),
    creator_address_hash: nullable(AddressHash),
    ens_domain_name: t.null,
    exchange_rate: t.null,
    has_beacon_chain_withdrawals: t.boolean,
    has_logs: t.boolean,
    has_token_transfers: t.boolean,
    has_tokens: t.boolean,
    has_validated_blocks: t.boolean,
    hash: AddressHash,
    implementations: ProxyImplementations,
    is_contract: t.boolean,
    is_scam: t.boolean,
    is_verified: t.boolean,
    metadata: t.null,
    name: nullable(t.string),
    private_tags: emptyList('no tags'),
    proxy_type: ProxyTypeName,
    public_tags: emptyList('no tags'),
    reputation: t.literal('ok'),
    token: nullable(Token),
    watchlist_address_id: t.null,
    watchlist_names: emptyList('no watchlists'),
  }),
);
