/**
 * The ports lib defines and adapters implement, one file each under lib/ports/:
 *
 * - DataSource (dataSource.ts): the read side, one per chain, composed of the queries of each
 *   record family, each family's file holding its filter, cursor and queries: blocks,
 *   transactions, internalTransactions, tokenTransfers, logs, coinBalances, tokenBalances,
 *   tokens, addresses, withdrawals, contracts, stats, userOperations (optional; paging and
 *   ranges shared in page.ts);
 * - DataSink (sink.ts): the write side, used by the indexer and the fixture builder;
 * - ContractStore (contractStore.ts): verified contracts and verification jobs;
 * - ChangeFeed (feed.ts): what each committed write changed;
 * - StoreLease (lease.ts): one writer per store;
 * - ChainSource (chainSource.ts): what the indexer asks of an EVM node.
 *
 * This module only re-exports them, so importers name one module.
 */
export type * from './ports/page.ts';
export type * from './ports/blocks.ts';
export type * from './ports/transactions.ts';
export type * from './ports/internalTransactions.ts';
export type * from './ports/tokenTransfers.ts';
export type * from './ports/logs.ts';
export type * from './ports/coinBalances.ts';
export type * from './ports/tokenBalances.ts';
export type * from './ports/tokens.ts';
export type * from './ports/addresses.ts';
export type * from './ports/withdrawals.ts';
export type * from './ports/contracts.ts';
export type * from './ports/stats.ts';
export type * from './ports/userOperations.ts';
export type * from './ports/dataSource.ts';
export type * from './ports/sink.ts';
export type * from './ports/contractStore.ts';
export type * from './ports/feed.ts';
export type * from './ports/lease.ts';
export * from './ports/chainSource.ts';
