/**
 * Contracts: created contracts, their proxy history, filter, cursor and queries.
 */
import type { Address, ContractCodeRecord, ProxyRecord } from '../domain/records.ts';
import type { Page } from './page.ts';

/**
 * Contracts the indexer saw created in consensus blocks: one record per creation (an address
 * created again after a self-destruct is listed once per creation).
 */
export interface ContractFilter {
  /** lower-case hex digits (optionally `0x`-prefixed): contracts whose address text contains them */
  readonly addressContains?: string;
}
/** Order desc: (blockNumber DESC, address DESC) — newest first. */
export interface ContractCursor {
  readonly blockNumber: number;
  readonly address: Address;
}
/** What countContracts counts: every contract, or those created at or after a unix time. */
export interface ContractCountFilter {
  readonly createdSince?: number;
}

/** The contract queries of a DataSource. */
export interface ContractQueries {
  /** Batch lookup of created contracts (each address's latest creation); missing addresses absent. */
  getContracts(addresses: readonly Address[]): Promise<readonly ContractCodeRecord[]>;
  /**
   * Batch lookup of proxies' implementation changes (lib/proxy/detect.ts), every change of each
   * address, oldest first (block, transaction index, then proxy); lib/proxy/history.ts picks the one in force
   * at a block. Addresses that are no proxy have none. Optional: without it every address
   * answers as no proxy (no `proxy_type`, no `implementations`, calls decoded by the address's
   * own ABI only), as for proxies the indexer did not detect.
   */
  getProxyHistory?(addresses: readonly Address[]): Promise<readonly ProxyRecord[]>;
  listContracts(filter: ContractFilter, page: Page<ContractCursor>): Promise<readonly ContractCodeRecord[]>;
  /**
   * How many creations match: all of them from a kept counter, or those at or after a unix time by
   * an index range (bounded by the recent contracts, not the chain). Optional: without it
   * `/smart-contracts/counters` answers 501, not available from this store (counting by
   * listContracts would read every contract).
   */
  countContracts?(filter: ContractCountFilter): Promise<number>;
}
