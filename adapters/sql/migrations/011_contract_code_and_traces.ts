/**
 * What the contract and raw-trace endpoints need: the code of every created contract (one row
 * per creation), a kept count of them (so counting costs the same at any chain length), and the
 * callTracer frames of every traced transaction. Rows carry block_hash (rollback, idempotence).
 */
import type { Knex } from 'knex';
import { dialectOf } from './frozen/dialect.ts';

export const name = '011_contract_code_and_traces';

export async function up(knex: Knex): Promise<void> {
  const d = dialectOf(knex);
  await knex.schema.createTable('contracts', (t) => {
    t.text('block_hash').notNullable();
    t.bigInteger('block_number').notNullable();
    t.text('address').notNullable();
    t.text('transaction_hash').notNullable();
    t.bigInteger('transaction_index').notNullable();
    t.bigInteger('timestamp').notNullable();
    t.text('creator').notNullable();
    t.text('deployed_bytecode').notNullable();
    t.text('creation_bytecode');
    t.primary(['block_hash', 'address']);
  });
  // listContracts: (block_number DESC, address DESC); getContracts: by address, latest first;
  // countContracts since a time: a timestamp range
  await knex.raw('CREATE INDEX contracts_list ON contracts (block_number DESC, address DESC)');
  await knex.raw('CREATE INDEX contracts_address ON contracts (address, block_number DESC)');
  await knex.raw('CREATE INDEX contracts_time ON contracts (timestamp)');

  await knex.schema.createTable('contract_counter', (t) => {
    t.integer('id').primary();
    t.bigInteger('total').notNullable();
  });
  await knex('contract_counter').insert({ id: 1, total: 0 });

  await knex.schema.createTable('trace_frames', (t) => {
    t.text('block_hash').notNullable();
    t.bigInteger('block_number').notNullable();
    t.text('transaction_hash').notNullable();
    t.bigInteger('transaction_index').notNullable();
    t.bigInteger('frame_index').notNullable();
    /** JSON array of child positions */
    t.text('trace_address').notNullable();
    t.text('type').notNullable();
    t.text('from_address').notNullable();
    t.text('to_address');
    d.bigColumn(t, 'value');
    d.bigColumn(t, 'gas');
    d.bigColumn(t, 'gas_used');
    t.text('input').notNullable();
    t.text('output');
    t.text('error');
    t.text('revert_reason');
    t.primary(['block_hash', 'transaction_hash', 'frame_index']);
  });
  await knex.raw('CREATE INDEX trace_frames_tx ON trace_frames (transaction_hash, frame_index)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('trace_frames');
  await knex.schema.dropTable('contract_counter');
  await knex.schema.dropTable('contracts');
}
