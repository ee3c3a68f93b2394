/**
 * Tokens and token instances: their keys, filters, cursors and queries.
 */
import type { Address, TokenInstanceRecord, TokenRecord, TokenType } from '../domain/records.ts';
import type { Page } from './page.ts';

export interface TokenInstanceFilter {
  readonly tokenAddress: Address;
  /** ERC-721: instances owned by holder; others: ids the holder has a positive balance of */
  readonly holder?: Address;
}
/** Order desc: tokenId DESC. */
export interface TokenInstanceCursor {
  readonly tokenId: bigint;
}
export interface TokenInstanceKey {
  readonly tokenAddress: Address;
  readonly tokenId: bigint;
}
export interface HeldTokenInstance {
  readonly instance: TokenInstanceRecord;
  /** the holder's balance of this id (1 for ERC-721); null without a holder filter */
  readonly value: bigint | null;
}

/**
 * Tokens, filtered. Names and symbols match by prefix after ASCII lower-casing (see
 * domain/text.ts: asciiLower); a blank prefix (or none) matches every token.
 */
export interface TokenListFilter {
  /** name or symbol, ASCII-lower-cased, starts with this prefix (ASCII-lower-cased by the store) */
  readonly prefix?: string;
  /** token type IN types; absent or empty: every type */
  readonly types?: readonly TokenType[];
}
/**
 * Order desc: (holdersCount DESC, name ASC with null names last, address ASC); names compare by
 * code point (domain/text.ts: compareCodePoints). The cursor is the last record's values.
 */
export interface TokenListCursor {
  readonly holdersCount: bigint;
  readonly name: string | null;
  readonly address: Address;
}

/** The token and token instance queries of a DataSource. */
export interface TokenQueries {
  getToken(address: Address): Promise<TokenRecord | null>;
  getTokens(addresses: readonly Address[]): Promise<readonly TokenRecord[]>;
  getTokenInstances(keys: readonly TokenInstanceKey[]): Promise<readonly TokenInstanceRecord[]>;
  listTokenInstances(
    filter: TokenInstanceFilter,
    page: Page<TokenInstanceCursor>,
  ): Promise<readonly HeldTokenInstance[]>;
  /** Tokens by holders count (see TokenListFilter, TokenListCursor). */
  listTokens(filter: TokenListFilter, page: Page<TokenListCursor>): Promise<readonly TokenRecord[]>;
}
