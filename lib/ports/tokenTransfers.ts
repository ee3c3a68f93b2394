/**
 * Token transfers: their filter, cursor, count filter and queries.
 */
import type { Address, Hash, Hex, TokenTransferRecord, TokenType } from '../domain/records.ts';
import type { BlockRange, Direction, Page } from './page.ts';

export interface TokenTransferFilter {
  readonly tokenAddress?: Address;
  /** transfers whose tokenIds contain this id (needs tokenAddress) */
  readonly tokenId?: bigint;
  readonly transactionHash?: Hash;
  /** token_type IN types */
  readonly types?: readonly TokenType[];
  /** OR-combined `0x` + 8 hex method ids of the parent transaction's input (`methodId`); empty: none match */
  readonly methodIds?: readonly Hex[];
  /** transfers from or to this address (see `direction`) */
  readonly address?: Address;
  readonly direction?: Direction;
  readonly blocks?: BlockRange;
}
/**
 * Order desc: (blockNumber DESC, logIndex DESC). With transactionHash only the cursor's
 * `logIndex` counts. `inclusive` also returns the record exactly at the cursor (used to
 * re-read an ERC-1155 batch that a page split).
 */
export interface TokenTransferCursor {
  readonly blockNumber: number;
  readonly logIndex: number;
  readonly inclusive?: boolean;
}

/**
 * What countTokenTransfers counts: the transfers of a token, or those of its transfers that
 * carry one id (an ERC-1155 batch counts once). An index range count, bounded by the token's
 * (or the id's) own transfers, not by the chain.
 */
export interface TokenTransferCountFilter {
  readonly tokenAddress: Address;
  readonly tokenId?: bigint;
}

/** The token transfer queries of a DataSource. */
export interface TokenTransferQueries {
  listTokenTransfers(
    filter: TokenTransferFilter,
    page: Page<TokenTransferCursor>,
  ): Promise<readonly TokenTransferRecord[]>;
  /** How many (consensus) token transfers match; see TokenTransferCountFilter. */
  countTokenTransfers(filter: TokenTransferCountFilter): Promise<number>;
}
