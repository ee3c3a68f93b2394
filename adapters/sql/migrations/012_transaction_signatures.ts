/**
 * Transaction signatures (r, s, v, yParity as the node reports them), so that JSON-RPC and
 * Etherscan `proxy` answers carry them (clients such as ethers refuse a transaction without
 * one). Nullable: rows written before this migration, and records built without a signature.
 */
import type { Knex } from 'knex';

export const name = '012_transaction_signatures';

const TABLES = ['transactions', 'pending_transactions'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.text('sig_r');
      t.text('sig_s');
      t.text('sig_v');
      t.integer('sig_y_parity');
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('sig_r');
      t.dropColumn('sig_s');
      t.dropColumn('sig_v');
      t.dropColumn('sig_y_parity');
    });
  }
}
