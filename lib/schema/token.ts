/** The Token object, as lib/render/token.ts renders it. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { AddressHash, IntegerString, TokenTypeCodec, nullable } from './scalars.ts';

export const Token = component(
  'Token',
  t.type({
    address_hash: AddressHash,
    circulating_market_cap: t.null,
    circulating_supply: t.null,
    decimals: nullable(IntegerString),
    exchange_rate: nullable(t.string),
    holders_count: IntegerString,
    icon_url: nullable(t.string),
    name: nullable(t.string),
    reputation: t.literal('ok'),
    symbol: nullable(t.string),
    total_supply: nullable(IntegerString),
    type: TokenTypeCodec,
    volume_24h: t.null,
  }),
);
