/**
 * Bulk catch-up (DataSink.beginBulk / settle): the secondary indexes only the API's reads use
 * are dropped while a long stretch of blocks is written, and rebuilt once on settle(). Their
 * definitions wait in deferred_indexes (migration 018), so a crash during bulk loses nothing:
 * the next beginBulk keeps them (and drops whatever is still there), the next settle restores them.
 *
 * Every index of the store is in exactly one of the lists below (test/adapters/sql/bulk.test.ts
 * fails on an index a migration adds to neither). PRIMARY KEY / UNIQUE indexes are never dropped.
 */
import type { Knex } from 'knex';
import type { Dialect } from './dialect.ts';
import { asRows, str } from './rows.ts';

/** Secondary indexes the writer reads through, with why; kept during bulk. */
export const KEPT_INDEXES: Readonly<Record<string, string>> = {
  // removeBlocks (reorg / rollbackAbove) reads and deletes these tables' rows by block_hash
  transactions_block: 'rollback: rows of removed blocks, counters and stats by block_hash',
  transaction_kinds_block: 'rollback: rows of removed blocks by block_hash',
  transfer_ids_block: 'rollback: keys of removed blocks by block_hash',
  address_history_block: 'rollback: affected addresses by block_hash',
  coin_balances_block: 'rollback: affected addresses by block_hash (counters, stats)',
  balance_history_block: 'rollback: affected balance keys by block_hash',
  token_history_block: 'rollback: affected tokens by block_hash',
  instance_history_block: 'rollback: affected token instances by block_hash',
  // refreshLatest (sql.ts) recomputes a current row from its history, newest first per key
  address_history_latest: 'refreshLatest: newest address record per hash',
  coin_balances_latest: 'refreshLatest / counters: newest coin balance per address',
  balance_history_latest: 'refreshLatest: newest balance per (holder, token, id)',
  token_history_latest: 'refreshLatest: newest token record per address',
  instance_history_latest: 'refreshLatest: newest instance per (token, id)',
  // write/views.ts: whether an address has proxy changes, for each address a write touched
  proxy_implementations_proxy: 'address_views: proxied, per touched address',
  // the writer's head and numbering reads
  blocks_number: 'blocks by number: canonical check, rollbackAbove, getIndexedHead',
  blocks_seq: 'MAX(seq) per writeBlocks call (migration 017)',
  // named in INDEXED BY hints (listTokens.ts via Dialect.through): SQLite fails a read naming a missing index
  token_search_name: 'INDEXED BY in listTokens',
  token_search_order: 'INDEXED BY in listTokens',
  token_search_symbol: 'INDEXED BY in listTokens',
  token_search_type: 'INDEXED BY in listTokens',
  // a uniqueness the writer relies on (withdrawals per block, deleted by block_hash on rollback)
  withdrawals_key: 'UNIQUE (block_hash, withdrawal_index): rollback deletes by block_hash',
  user_operations_block: 'rollback: user operations of removed blocks by block_hash (migration 026)',
  // the contract store's tables (migration 019) are written outside block writes, never bulk-loaded
  verified_contracts_code_hash: 'UNIQUE (code_hash): the contract store\'s key',
  verified_contracts_language: 'contract store: its list by language, written by verifications, not blocks',
  verification_jobs_input: 'contract store: a job by address and input (the same submission runs once)',
};

/** Secondary indexes only reads use: dropped during bulk, rebuilt by settle(). */
export const DEFERRED_INDEXES: readonly string[] = [
  'accounts_balance_asc',
  'accounts_balance_desc',
  'accounts_txs_asc',
  'accounts_txs_desc',
  'addresses_contract_name',
  'addresses_name',
  'blocks_list',
  'blocks_miner',
  'blocks_time',
  'contracts_address',
  'contracts_list',
  'contracts_time',
  'balances_collections',
  'balances_id',
  'balances_list',
  'balances_type',
  'holders_id',
  'holders_token',
  'internal_created',
  'internal_from',
  'internal_list',
  'internal_to',
  'internal_tx',
  'logs_address',
  'logs_list',
  'logs_tx',
  'nft_owners_owner',
  'pending_created',
  'pending_from',
  'pending_list',
  'pending_to',
  'state_changes_tx',
  'trace_frames_tx',
  'transfers_from',
  'transfers_list',
  'transfers_method',
  'transfers_to',
  'transfers_token',
  'transfers_tx',
  'transfers_type',
  'transactions_created',
  'transactions_from',
  'transactions_list',
  'transactions_method',
  'transactions_time',
  'transactions_to',
  'user_operation_parties_bundles',
  'user_operation_parties_ops',
  'user_operations_bundler',
  'user_operations_bundler_bundles',
  'user_operations_bundles',
  'user_operations_creations',
  'user_operations_entry_point',
  'user_operations_factory',
  'user_operations_factory_accounts',
  'user_operations_list',
  'user_operations_paymaster',
  'user_operations_sender',
  'user_operations_tx',
  'withdrawals_address',
  'withdrawals_block',
  'withdrawals_list',
];

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Save the definition of each deferred index still present (a definition saved before, by a
 * bulk a crash interrupted, is kept) and drop it: one transaction, idempotent.
 */
export async function beginBulk(knex: Knex, d: Dialect): Promise<void> {
  await knex.transaction(async (trx) => {
    const present = await d.indexDefinitions(trx, DEFERRED_INDEXES);
    if (present.length === 0) return;
    await trx('deferred_indexes')
      .insert(present.map((p) => ({ name: p.name, definition: p.definition })))
      .onConflict('name')
      .ignore();
    for (const p of present) await trx.raw(`DROP INDEX IF EXISTS ${quoted(p.name)}`);
  });
}

/** Recreate every index a bulk deferred (from its saved definition) and forget them: one transaction. */
export async function restoreDeferred(knex: Knex, d: Dialect): Promise<void> {
  await knex.transaction(async (trx) => {
    const saved = asRows(await trx('deferred_indexes').select('name', 'definition').orderBy('name'));
    if (saved.length === 0) return;
    const present = new Set((await d.indexDefinitions(trx, saved.map((r) => str(r, 'name')))).map((p) => p.name));
    await d.buildIndexes(
      trx,
      saved.filter((r) => !present.has(str(r, 'name'))).map((r) => str(r, 'definition')),
    );
    await trx('deferred_indexes').delete();
  });
}

/** Whether any index is deferred (beginBulk called, not settled since). */
export async function inBulk(knex: Knex): Promise<boolean> {
  return asRows(await knex('deferred_indexes').select('name').limit(1)).length > 0;
}
