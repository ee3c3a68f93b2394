/**
 * What an action's parameters are, for our OpenAPI document (lib/openapi/etherscan.ts): each
 * action module lists its own (`EtherscanAction.params`), from the shared ones here. `example`
 * names the value of the served store that fills the parameter's example ("Try it out").
 */

/** Which value of the store a parameter's example is (lib/openapi/examples.ts reads them). */
export type ExampleOf = 'address' | 'contract' | 'token' | 'nftToken' | 'tokenId' | 'transaction' | 'blockNumber' | 'blockHash' | 'blockTimestamp' | 'blockTag' | 'date';

export interface EtherscanParam {
  readonly name: string;
  readonly description: string;
  readonly required?: true;
  /** the values it takes, when they are a fixed few */
  readonly enum?: readonly string[];
  readonly example?: ExampleOf;
}

const required = (p: EtherscanParam): EtherscanParam => ({ ...p, required: true });

/** `address`: one address (required unless told). */
export const ADDRESS: EtherscanParam = { name: 'address', description: 'An address (0x + 40 hex digits)', required: true, example: 'address' };
export const OPTIONAL_ADDRESS: EtherscanParam = { name: 'address', description: 'An address (0x + 40 hex digits)', example: 'address' };
/** `address` of a contract (getabi, getsourcecode). */
export const CONTRACT_ADDRESS: EtherscanParam = { name: 'address', description: 'A contract address', required: true, example: 'contract' };
export const ADDRESS_LIST: EtherscanParam = { name: 'address', description: 'An address, or up to 20 separated by commas', required: true, example: 'address' };
export const CONTRACTADDRESS: EtherscanParam = { name: 'contractaddress', description: "A token's contract address", required: true, example: 'token' };
export const OPTIONAL_CONTRACTADDRESS: EtherscanParam = { name: 'contractaddress', description: "A token's contract address", example: 'token' };
export const TXHASH: EtherscanParam = { name: 'txhash', description: 'A transaction hash (0x + 64 hex digits)', required: true, example: 'transaction' };
export const BLOCKNO: EtherscanParam = required({ name: 'blockno', description: 'A block number', example: 'blockNumber' });

export const PAGE: EtherscanParam = { name: 'page', description: 'The page, from 1 (page × offset ≤ 10000)' };
export const OFFSET: EtherscanParam = { name: 'offset', description: 'Rows per page (1..10000)' };
export const SORT: EtherscanParam = { name: 'sort', description: 'By block: `asc` or `desc` (default)', enum: ['asc', 'desc'] };
export const STARTBLOCK: EtherscanParam = { name: 'startblock', description: 'The first block (inclusive)' };
export const ENDBLOCK: EtherscanParam = { name: 'endblock', description: 'The last block (inclusive)' };

/** `page` and `offset` */
export const PAGING: readonly EtherscanParam[] = [PAGE, OFFSET];
/** a list of an address's rows: blocks, sort, paging */
export const LISTING: readonly EtherscanParam[] = [STARTBLOCK, ENDBLOCK, SORT, PAGE, OFFSET];
