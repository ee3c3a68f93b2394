/**
 * The whole schema. Every list query of the DataSource has an index whose columns are its
 * equality prefix followed by its sort columns in order (see the comment on each index), so
 * a page is an index range scan from the cursor: no OFFSET, no sort step.
 *
 * Conventions: hashes and addresses are lower-case hex TEXT; block numbers, positions and
 * timestamps are bigint; big integers use the dialect's bigColumn (plain) or keyColumn
 * (sorted/compared) — see dialect.ts; arrays (topics, kinds, uncles, token ids, amounts) and
 * metadata are JSON text. History tables ("as of a block") carry block_hash (rollback and
 * idempotence key) and a `seq` write order that breaks block-number ties (the later write wins).
 */
import type { Knex } from 'knex';
import { dialectOf } from './frozen/dialect.ts';

export const name = '001_initial';

function index(knex: Knex, indexName: string, table: string, columns: string): Knex.Raw {
  return knex.raw(`CREATE INDEX ${indexName} ON ${table} (${columns})`);
}

/** History tables: the write order `seq`, the block that brought the row (rollback, idempotence). */
function historyColumns(t: Knex.CreateTableBuilder): void {
  t.bigIncrements('seq');
  t.bigInteger('block_number').notNullable();
  t.text('block_hash').notNullable();
}

export async function up(knex: Knex): Promise<void> {
  const d = dialectOf(knex);

  // ---- blocks ----------------------------------------------------------------------------------
  await knex.schema.createTable('blocks', (t) => {
    t.text('hash').primary();
    t.bigInteger('number').notNullable();
    /** write order: the latest-written non-consensus block is preferred at a height */
    t.bigInteger('seq').notNullable();
    t.text('parent_hash').notNullable();
    t.bigInteger('timestamp').notNullable();
    t.text('miner').notNullable();
    t.bigInteger('size');
    d.bigColumn(t, 'gas_limit').notNullable();
    d.bigColumn(t, 'gas_used').notNullable();
    d.bigColumn(t, 'base_fee_per_gas');
    d.bigColumn(t, 'difficulty');
    d.bigColumn(t, 'total_difficulty');
    t.text('nonce').notNullable();
    t.text('extra_data').notNullable();
    t.text('state_root');
    t.boolean('consensus').notNullable();
    t.text('uncles_hashes').notNullable();
    t.integer('transactions_count').notNullable();
    t.integer('internal_transactions_count').notNullable();
    d.bigColumn(t, 'transaction_fees').notNullable();
    d.bigColumn(t, 'burnt_fees').notNullable();
    d.bigColumn(t, 'priority_fee').notNullable();
  });
  // listBlocks: consensus = ?, (number DESC, hash ASC); with miner = ?
  await index(knex, 'blocks_list', 'blocks', 'consensus, number DESC, hash');
  await index(knex, 'blocks_miner', 'blocks', 'miner, consensus, number DESC, hash');
  // getBlock by number, heads, rollback
  await index(knex, 'blocks_number', 'blocks', 'number, consensus, seq');

  // ---- transactions ------------------------------------------------------------------------------
  const txColumns = (t: Knex.CreateTableBuilder): void => {
    t.text('hash').notNullable();
    t.bigInteger('block_number');
    t.text('block_hash');
    t.bigInteger('tx_index');
    t.bigInteger('timestamp');
    d.bigColumn(t, 'base_fee_per_gas');
    t.text('from_address').notNullable();
    t.text('to_address');
    t.text('created_contract');
    d.bigColumn(t, 'value').notNullable();
    d.bigColumn(t, 'gas').notNullable();
    d.bigColumn(t, 'gas_price');
    d.bigColumn(t, 'max_fee_per_gas');
    d.bigColumn(t, 'max_priority_fee_per_gas');
    d.bigColumn(t, 'gas_used');
    t.text('status');
    t.text('error');
    t.text('revert_reason');
    t.bigInteger('nonce').notNullable();
    t.bigInteger('type');
    t.text('input').notNullable();
    t.text('method_id');
    t.bigInteger('inserted_at').notNullable();
    t.text('kinds').notNullable();
    t.boolean('has_error_in_internal');
  };
  // transactions of stored blocks (consensus or not); a hash may sit in several blocks
  await knex.schema.createTable('transactions', (t) => {
    txColumns(t);
    t.boolean('consensus').notNullable();
    t.primary(['hash', 'block_hash']);
  });
  // validated: (block_number DESC, tx_index DESC); with method ids: one seek per method id
  await index(knex, 'transactions_list', 'transactions', 'consensus, block_number DESC, tx_index DESC');
  await index(knex, 'transactions_method', 'transactions', 'consensus, method_id, block_number DESC, tx_index DESC');
  await index(knex, 'transactions_block', 'transactions', 'block_hash');

  await knex.schema.createTable('pending_transactions', (t) => {
    txColumns(t);
    t.primary(['hash']);
  });
  // pending: (inserted_at DESC, hash ASC)
  await index(knex, 'pending_list', 'pending_transactions', 'inserted_at DESC, hash');

  // validated transactions by kind: one seek per kind (an OR of kinds is a union of seeks)
  await knex.schema.createTable('transaction_kinds', (t) => {
    t.smallint('kind').notNullable();
    t.bigInteger('block_number').notNullable();
    t.bigInteger('tx_index').notNullable();
    t.text('block_hash').notNullable();
    t.primary(['kind', 'block_number', 'tx_index', 'block_hash']);
  });
  await index(knex, 'transaction_kinds_block', 'transaction_kinds', 'block_hash');

  // ---- rows of consensus blocks only (non-consensus blocks keep just block + transactions) -------
  await knex.schema.createTable('internal_transactions', (t) => {
    t.text('block_hash').notNullable();
    t.text('transaction_hash').notNullable();
    t.bigInteger('trace_index').notNullable();
    t.bigInteger('block_number').notNullable();
    t.bigInteger('transaction_index').notNullable();
    t.bigInteger('timestamp').notNullable();
    t.text('type').notNullable();
    t.text('from_address').notNullable();
    t.text('to_address');
    t.text('created_contract');
    d.bigColumn(t, 'value').notNullable();
    d.bigColumn(t, 'gas');
    d.bigColumn(t, 'gas_used');
    t.text('error');
    /** false for the top-level call, which no list shows */
    t.boolean('listed').notNullable();
    t.primary(['block_hash', 'transaction_hash', 'trace_index']);
  });
  const itOrder = 'block_number DESC, transaction_index DESC, trace_index DESC';
  await index(knex, 'internal_list', 'internal_transactions', `listed, ${itOrder}`);
  await index(knex, 'internal_from', 'internal_transactions', `from_address, listed, ${itOrder}`);
  await index(knex, 'internal_to', 'internal_transactions', `to_address, listed, ${itOrder}`);
  await index(knex, 'internal_created', 'internal_transactions', `created_contract, listed, ${itOrder}`);
  await index(knex, 'internal_tx', 'internal_transactions', 'transaction_hash, trace_index');

  await knex.schema.createTable('logs', (t) => {
    t.text('block_hash').notNullable();
    t.bigInteger('log_index').notNullable();
    t.text('transaction_hash').notNullable();
    t.bigInteger('block_number').notNullable();
    t.bigInteger('transaction_index').notNullable();
    t.bigInteger('timestamp').notNullable();
    t.text('address').notNullable();
    t.text('topics').notNullable();
    t.text('data').notNullable();
    t.primary(['block_hash', 'log_index']);
  });
  // listLogs: transaction_hash = ?, log_index ASC
  await index(knex, 'logs_tx', 'logs', 'transaction_hash, log_index');

  await knex.schema.createTable('token_transfers', (t) => {
    t.text('block_hash').notNullable();
    t.bigInteger('log_index').notNullable();
    t.text('transaction_hash').notNullable();
    t.bigInteger('block_number').notNullable();
    t.bigInteger('transaction_index').notNullable();
    t.bigInteger('timestamp').notNullable();
    t.text('from_address').notNullable();
    t.text('to_address').notNullable();
    t.text('token_address').notNullable();
    t.text('token_type').notNullable();
    d.bigColumn(t, 'amount');
    /** JSON arrays of decimal strings (an ERC-1155 batch keeps its order); ids are also in token_transfer_ids */
    t.text('token_ids').notNullable();
    t.text('amounts').notNullable();
    t.text('method_id');
    t.primary(['block_hash', 'log_index']);
  });
  // (block_number DESC, log_index DESC): all, by token, by type; by transaction: log_index ASC
  await index(knex, 'transfers_list', 'token_transfers', 'block_number DESC, log_index DESC');
  await index(knex, 'transfers_token', 'token_transfers', 'token_address, block_number DESC, log_index DESC');
  await index(knex, 'transfers_type', 'token_transfers', 'token_type, block_number DESC, log_index DESC');
  await index(knex, 'transfers_tx', 'token_transfers', 'transaction_hash, log_index');

  // one row per (transfer, token id): the tokenId filter's index and the source of ERC-721 owners
  await knex.schema.createTable('token_transfer_ids', (t) => {
    t.text('token_address').notNullable();
    d.keyColumn(t, 'token_id').notNullable();
    t.bigInteger('block_number').notNullable();
    t.bigInteger('log_index').notNullable();
    t.text('block_hash').notNullable();
    t.text('token_type').notNullable();
    t.text('to_address').notNullable();
    t.primary(['token_address', 'token_id', 'block_number', 'log_index']);
  });
  await index(knex, 'transfer_ids_block', 'token_transfer_ids', 'block_hash');

  // latest transfer of each (token, id): its receiver and type (ERC-721 owner), kept by the sink
  await knex.schema.createTable('nft_owners', (t) => {
    t.text('token_address').notNullable();
    d.keyColumn(t, 'token_id').notNullable();
    t.text('owner').notNullable();
    t.text('token_type').notNullable();
    t.primary(['token_address', 'token_id']);
  });
  await index(knex, 'nft_owners_owner', 'nft_owners', 'owner, token_address, token_id DESC');

  await knex.schema.createTable('state_changes', (t) => {
    t.text('block_hash').notNullable();
    t.text('transaction_hash').notNullable();
    t.bigInteger('ordinal').notNullable();
    t.bigInteger('block_number').notNullable();
    t.text('address').notNullable();
    t.text('type').notNullable();
    t.text('token_address');
    d.bigColumn(t, 'token_id');
    d.bigColumn(t, 'balance_before').notNullable();
    d.bigColumn(t, 'balance_after').notNullable();
    t.boolean('is_miner').notNullable();
    t.primary(['block_hash', 'transaction_hash', 'ordinal']);
  });
  await index(knex, 'state_changes_tx', 'state_changes', 'transaction_hash, ordinal');

  // ---- keyed history + current value (the latest by block_number, seq) ----------------------------
  const tokenColumns = (t: Knex.CreateTableBuilder): void => {
    t.text('address').notNullable();
    t.text('type').notNullable();
    t.text('name');
    t.text('symbol');
    d.bigColumn(t, 'decimals');
    d.bigColumn(t, 'total_supply');
    t.text('icon_url');
    t.text('exchange_rate');
  };
  await knex.schema.createTable('token_history', (t) => {
    historyColumns(t);
    tokenColumns(t);
    t.unique(['address', 'block_hash'], { indexName: 'token_history_key' });
  });
  await index(knex, 'token_history_latest', 'token_history', 'address, block_number, seq');
  await index(knex, 'token_history_block', 'token_history', 'block_hash');
  await knex.schema.createTable('tokens', (t) => {
    tokenColumns(t);
    t.primary(['address']);
  });
  // holders_count, maintained incrementally by the sink (independent of the token row)
  await knex.schema.createTable('token_holder_counts', (t) => {
    t.text('token_address').primary();
    t.bigInteger('holders_count').notNullable();
  });

  await knex.schema.createTable('address_history', (t) => {
    historyColumns(t);
    t.text('hash').notNullable();
    t.boolean('is_contract').notNullable();
    t.text('name');
    t.text('creation_transaction_hash');
    t.text('creator_address');
    t.unique(['hash', 'block_hash'], { indexName: 'address_history_key' });
  });
  await index(knex, 'address_history_latest', 'address_history', 'hash, block_number, seq');
  await index(knex, 'address_history_block', 'address_history', 'block_hash');
  await knex.schema.createTable('addresses', (t) => {
    t.text('hash').primary();
    t.boolean('is_contract').notNullable();
    t.text('name');
    t.text('creation_transaction_hash');
    t.text('creator_address');
  });

  await knex.schema.createTable('token_balance_history', (t) => {
    historyColumns(t);
    t.text('holder').notNullable();
    t.text('token_address').notNullable();
    d.keyColumn(t, 'token_id').notNullable();
    t.text('token_type').notNullable();
    d.keyColumn(t, 'value').notNullable();
    t.unique(['holder', 'token_address', 'token_id', 'block_hash'], { indexName: 'balance_history_key' });
  });
  await index(knex, 'balance_history_latest', 'token_balance_history', 'holder, token_address, token_id, block_number, seq');
  await index(knex, 'balance_history_block', 'token_balance_history', 'block_hash');
  // the current balance of each key that lists show: value > 0, or any ERC-7984
  await knex.schema.createTable('current_token_balances', (t) => {
    t.text('holder').notNullable();
    t.text('token_address').notNullable();
    d.keyColumn(t, 'token_id').notNullable();
    t.text('token_type').notNullable();
    d.keyColumn(t, 'value').notNullable();
    t.primary(['holder', 'token_address', 'token_id']);
  });
  // listTokenBalances: (value DESC, token_address DESC, token_id DESC); with types: one seek per type
  await index(knex, 'balances_list', 'current_token_balances', 'holder, value DESC, token_address DESC, token_id DESC');
  await index(knex, 'balances_type', 'current_token_balances', 'holder, token_type, value DESC, token_address DESC, token_id DESC');
  // NFT collections: (type, token_address ASC) per holder
  await index(knex, 'balances_collections', 'current_token_balances', 'holder, token_type, token_address, token_id DESC');
  // holders of one id (ERC-1155/404 owner)
  await index(knex, 'balances_id', 'current_token_balances', 'token_address, token_id, holder');

  await knex.schema.createTable('coin_balances', (t) => {
    historyColumns(t);
    t.text('address').notNullable();
    d.bigColumn(t, 'value').notNullable();
    t.unique(['address', 'block_hash'], { indexName: 'coin_balances_key' });
  });
  await index(knex, 'coin_balances_latest', 'coin_balances', 'address, block_number, seq');
  await index(knex, 'coin_balances_block', 'coin_balances', 'block_hash');

  await knex.schema.createTable('token_instance_history', (t) => {
    historyColumns(t);
    t.text('token_address').notNullable();
    d.keyColumn(t, 'token_id').notNullable();
    t.text('token_type').notNullable();
    t.text('metadata');
    t.unique(['token_address', 'token_id', 'block_hash'], { indexName: 'instance_history_key' });
  });
  await index(knex, 'instance_history_latest', 'token_instance_history', 'token_address, token_id, block_number, seq');
  await index(knex, 'instance_history_block', 'token_instance_history', 'block_hash');
  // listTokenInstances: token_address = ?, token_id DESC (the primary key)
  await knex.schema.createTable('token_instances', (t) => {
    t.text('token_address').notNullable();
    d.keyColumn(t, 'token_id').notNullable();
    t.text('token_type').notNullable();
    t.text('metadata');
    t.primary(['token_address', 'token_id']);
  });
}

export const TABLES = [
  'token_instances',
  'token_instance_history',
  'coin_balances',
  'current_token_balances',
  'token_balance_history',
  'addresses',
  'address_history',
  'token_holder_counts',
  'tokens',
  'token_history',
  'state_changes',
  'nft_owners',
  'token_transfer_ids',
  'token_transfers',
  'logs',
  'internal_transactions',
  'transaction_kinds',
  'pending_transactions',
  'transactions',
  'blocks',
] as const;

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.schema.dropTableIfExists(table);
}
