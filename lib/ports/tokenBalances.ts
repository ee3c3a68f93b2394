/**
 * Token balances: current balances by holder and by token (holders), and NFT collections by holder.
 */
import type { Address, NftTokenType, TokenRecord, TokenType } from '../domain/records.ts';
import type { Page } from './page.ts';

export interface TokenBalanceFilter {
  readonly holder: Address;
  readonly types?: readonly TokenType[];
}
/** A current balance (latest per holder/token/id) with value > 0 (ERC-7984: any value). */
export interface CurrentTokenBalance {
  readonly holder: Address;
  readonly tokenAddress: Address;
  readonly tokenType: TokenType;
  readonly tokenId: bigint | null;
  readonly value: bigint;
}
/** A current balance with its token's record (null while the store holds no row for the token). */
export interface TokenHolding extends CurrentTokenBalance {
  readonly token: TokenRecord | null;
}
/**
 * Order desc: (value DESC, tokenAddress DESC, tokenId DESC with null lowest).
 * Cursor holds the last row's values; tokenId null compares below every id.
 */
export interface TokenBalanceCursor {
  readonly value: bigint;
  readonly tokenAddress: Address;
  readonly tokenId: bigint | null;
}

/** The holders of a token (every current balance row: ERC-1155/404 one per id), or of one id. */
export interface TokenHolderFilter {
  readonly tokenAddress: Address;
  /** only balances of this id (ERC-721 balances are per contract, so none match) */
  readonly tokenId?: bigint;
}
/**
 * Current balances with value > 0 (ERC-7984: any value), the zero address excluded.
 * Order desc: (value DESC, holder DESC, tokenId DESC with null lowest).
 */
export interface TokenHolderCursor {
  readonly value: bigint;
  readonly holder: Address;
  readonly tokenId: bigint | null;
}

export interface NftCollectionFilter {
  readonly holder: Address;
  /** effective NFT types, in any order; the result follows the type rank of NFT_TOKEN_TYPES */
  readonly types: readonly NftTokenType[];
  /** how many held ids each collection carries in `holdings` (the highest ids) */
  readonly holdings: number;
}
export interface NftCollectionRecord {
  readonly tokenAddress: Address;
  readonly tokenType: NftTokenType;
  /** ERC-721: NFTs held; ERC-1155/404: distinct ids held */
  readonly amount: bigint;
  /** up to `filter.holdings` held ids with their balances, tokenId DESC (ERC-721 value is 1) */
  readonly holdings: readonly { readonly tokenId: bigint; readonly value: bigint }[];
}
/** Order desc: (type rank in NFT_TOKEN_TYPES DESC, tokenAddress DESC). */
export interface NftCollectionCursor {
  readonly tokenType: NftTokenType;
  readonly tokenAddress: Address;
}

/** The token balance queries of a DataSource. */
export interface TokenBalanceQueries {
  listTokenBalances(
    filter: TokenBalanceFilter,
    page: Page<TokenBalanceCursor>,
  ): Promise<readonly CurrentTokenBalance[]>;
  /** listTokenBalances with each balance's token record read in the same query (the same filter, order, cursor and rows). */
  listTokenHoldings(filter: TokenBalanceFilter, page: Page<TokenBalanceCursor>): Promise<readonly TokenHolding[]>;
  listTokenHolders(filter: TokenHolderFilter, page: Page<TokenHolderCursor>): Promise<readonly CurrentTokenBalance[]>;
  listNftCollections(
    filter: NftCollectionFilter,
    page: Page<NftCollectionCursor>,
  ): Promise<readonly NftCollectionRecord[]>;
}
