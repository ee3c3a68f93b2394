/** The Token object. */
import type { Address, TokenRecord, TokenType } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { Token } from '../schema/token.ts';
import { checksum, decOrNull } from './format.ts';

/** The Token object as the API writes it. */
export type TokenJson = t.OutputOf<typeof Token>;

export function renderToken(token: TokenRecord): TokenJson {
  return {
    address_hash: checksum(token.address),
    circulating_market_cap: null,
    circulating_supply: null,
    decimals: decOrNull(token.decimals),
    exchange_rate: token.exchangeRate,
    holders_count: (token.holdersCount < 0n ? 0n : token.holdersCount).toString(),
    icon_url: token.iconUrl,
    name: token.name,
    reputation: 'ok',
    symbol: token.symbol,
    total_supply: decOrNull(token.totalSupply),
    type: token.type,
    volume_24h: null,
  };
}

/** A token the store has no row for yet: every optional field null. */
export function unknownToken(address: Address, type: TokenType): TokenRecord {
  return {
    address,
    type,
    name: null,
    symbol: null,
    decimals: null,
    totalSupply: null,
    holdersCount: 0n,
    iconUrl: null,
    exchangeRate: null,
  };
}
