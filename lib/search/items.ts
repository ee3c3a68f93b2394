/** Search result items in Blockscout's shapes (`type` + fields, all with a `priority`). */
import type { AddressRecord, BlockRecord, TokenRecord, TransactionRecord } from '../domain/records.ts';
import type { UserOperationRecord } from '../domain/userOperations.ts';
import type * as t from 'io-ts';
import type { SearchAddress, SearchBlock, SearchItem, SearchToken, SearchTransaction, SearchUserOperation } from '../schema/search.ts';
import { checksum, decOrNull, iso, isoOrNull } from '../render/format.ts';

/** Blockscout's priorities: blocks 3, tokens 2, everything else here 0. */
export const PRIORITY = { block: 3, token: 2, contract: 0, address: 0, transaction: 0, user_operation: 0 } as const;

/** a search result, as its schema types it */
export type SearchItemJson = t.OutputOf<typeof SearchItem>;

export function tokenItem(t: TokenRecord): t.OutputOf<typeof SearchToken> {
  return {
    type: 'token',
    name: t.name,
    symbol: t.symbol,
    address_hash: checksum(t.address),
    token_url: `/token/${t.address}`,
    address_url: `/address/${t.address}`,
    icon_url: t.iconUrl,
    token_type: t.type,
    exchange_rate: t.exchangeRate,
    total_supply: decOrNull(t.totalSupply),
    circulating_market_cap: null,
    is_verified_via_admin_panel: false,
    is_smart_contract_verified: false,
    is_smart_contract_address: true,
    certified: false,
    reputation: 'ok',
    priority: PRIORITY.token,
  };
}

/** An address result, or a contract result (a named contract found by its name). */
export function addressItem(a: AddressRecord, type: 'address' | 'contract'): t.OutputOf<typeof SearchAddress> {
  return {
    type,
    name: a.name,
    address_hash: checksum(a.hash),
    url: `/address/${a.hash}`,
    is_smart_contract_verified: false,
    is_smart_contract_address: a.isContract,
    ens_info: null,
    certified: false,
    reputation: 'ok',
    priority: PRIORITY[type],
  };
}

export function blockItem(b: BlockRecord): t.OutputOf<typeof SearchBlock> {
  return {
    type: 'block',
    block_number: b.number,
    block_hash: b.hash,
    url: `/block/${b.hash}`,
    timestamp: iso(b.timestamp),
    block_type: b.consensus ? 'block' : 'reorg',
    priority: PRIORITY.block,
  };
}

export function transactionItem(t: TransactionRecord): t.OutputOf<typeof SearchTransaction> {
  return { type: 'transaction', transaction_hash: t.hash, url: `/tx/${t.hash}`, timestamp: isoOrNull(t.timestamp), priority: PRIORITY.transaction };
}

/** A user operation: its hash and its block's time (Blockscout's item has no url). */
export function userOperationItem(o: UserOperationRecord): t.OutputOf<typeof SearchUserOperation> {
  return { type: 'user_operation', user_operation_hash: o.hash, timestamp: iso(o.timestamp), priority: PRIORITY.user_operation };
}
