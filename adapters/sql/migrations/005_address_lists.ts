/**
 * Indexes for the general lists: transactions and token transfers by address (each side its
 * own seek), logs of the whole chain and by emitting contract. Each is the filter's equality
 * prefix followed by the list's order, so both orders and block ranges are index range scans.
 */
import type { Knex } from 'knex';

export const name = '005_address_lists';

const INDEXES: readonly (readonly [name: string, table: string, columns: string])[] = [
  // listTransactions validated with address: (block_number DESC, tx_index DESC) per side
  ['transactions_from', 'transactions', 'from_address, consensus, block_number DESC, tx_index DESC'],
  ['transactions_to', 'transactions', 'to_address, consensus, block_number DESC, tx_index DESC'],
  ['transactions_created', 'transactions', 'created_contract, consensus, block_number DESC, tx_index DESC'],
  // listTransactions pending with address: (inserted_at DESC, hash ASC) per side
  ['pending_from', 'pending_transactions', 'from_address, inserted_at DESC, hash'],
  ['pending_to', 'pending_transactions', 'to_address, inserted_at DESC, hash'],
  ['pending_created', 'pending_transactions', 'created_contract, inserted_at DESC, hash'],
  // listTokenTransfers with address: (block_number DESC, log_index DESC) per side
  ['transfers_from', 'token_transfers', 'from_address, block_number DESC, log_index DESC'],
  ['transfers_to', 'token_transfers', 'to_address, block_number DESC, log_index DESC'],
  // listLogs without a transaction: all, by emitting contract
  ['logs_list', 'logs', 'block_number DESC, log_index DESC'],
  ['logs_address', 'logs', 'address, block_number DESC, log_index DESC'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [index, table, columns] of INDEXES) await knex.raw(`CREATE INDEX ${index} ON ${table} (${columns})`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [index] of INDEXES) await knex.raw(`DROP INDEX ${index}`);
}
