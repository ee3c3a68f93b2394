/**
 * address_counters: what the sink keeps per address (adapters/sql/write/counters.ts) — the raw
 * counter parts (transactions sent or received once each, received, token transfers, gas of
 * outgoing and incoming transactions, blocks mined), the effective transactions count (a
 * contract's received ones, else sent or received: it depends on the address's current
 * contract status), and the current coin balance (the latest consensus coin balance record).
 * `listed` marks a positive balance: the top-accounts rows. Every listAccounts order has its
 * index (listed first), so a page is index range scans from the cursor. A store written
 * before this migration is counted once, from its rows (the recount below: the rules of
 * lib/stats/addressCounters.ts and adapters/sql/write/counters.ts as they were when it was written).
 */
import type { Knex } from 'knex';
import type { MigrationDialect } from './frozen/dialect.ts';
import { dialectOf, toBig } from './frozen/dialect.ts';
import type { Row, WriteRow } from './frozen/rows.ts';
import { asRows, big, bool, num, str } from './frozen/rows.ts';
import { BULK_ROWS, chunks, keyRows, upsertRows } from './frozen/sql.ts';

export const name = '008_address_counters';

const INDEXES: readonly (readonly [name: string, columns: string])[] = [
  // balance desc: (balance DESC, address ASC); asc: (balance ASC, address ASC)
  ['accounts_balance_desc', 'listed, balance DESC, address'],
  ['accounts_balance_asc', 'listed, balance, address'],
  // transactions count desc / asc, then (balance DESC, address ASC)
  ['accounts_txs_desc', 'listed, transactions_count DESC, balance DESC, address'],
  ['accounts_txs_asc', 'listed, transactions_count, balance DESC, address'],
];

export async function up(knex: Knex): Promise<void> {
  const d = dialectOf(knex);
  await knex.schema.createTable('address_counters', (t) => {
    t.text('address').primary();
    t.bigInteger('tx_any').notNullable();
    t.bigInteger('tx_to').notNullable();
    t.bigInteger('transfers').notNullable();
    d.bigColumn(t, 'gas_in').notNullable();
    d.bigColumn(t, 'gas_out').notNullable();
    t.bigInteger('validations').notNullable();
    t.bigInteger('transactions_count').notNullable();
    d.keyColumn(t, 'balance');
    t.bigInteger('balance_block');
    t.boolean('listed').notNullable();
  });
  for (const [index, columns] of INDEXES) await knex.raw(`CREATE INDEX ${index} ON address_counters (${columns})`);
  // a store written before this migration: count what it holds
  await recount(knex, d);
}

/** The raw counter parts of an address. */
interface Parts {
  txAny: bigint;
  txTo: bigint;
  transfers: bigint;
  gasIn: bigint;
  gasOut: bigint;
  validations: bigint;
}
const zeroParts = (): Parts => ({ txAny: 0n, txTo: 0n, transfers: 0n, gasIn: 0n, gasOut: 0n, validations: 0n });

/** The rows of `table` whose `column` is one of `values` (one statement per BULK_ROWS values). */
async function rowsWhereIn(trx: Knex.Transaction, d: MigrationDialect, table: string, columns: string, column: string, values: readonly string[]): Promise<Row[]> {
  const out: Row[] = [];
  for (const part of chunks(values, BULK_ROWS)) {
    const keys = keyRows(d, table, [column], part.map((v) => [v]));
    const rows = await trx.raw(`SELECT ${columns} FROM ${table} WHERE "${column}" IN (SELECT "${column}" FROM ${keys.sql} k)`, [...keys.bindings]);
    out.push(...asRows(d.rawRows(rows)));
  }
  return out;
}

/** The latest coin balance record of an address (coin_balances holds consensus rows only). */
async function latestBalance(trx: Knex.Transaction, address: string): Promise<{ value: bigint; block: number } | null> {
  const rows = asRows(
    await trx('coin_balances')
      .select('value', 'block_number')
      .where('address', address)
      .orderBy([
        { column: 'block_number', order: 'desc' },
        { column: 'seq', order: 'desc' },
      ])
      .limit(1),
  );
  const r = rows[0];
  return r === undefined ? null : { value: big(r, 'value'), block: num(r, 'block_number') };
}

/**
 * Count every address from the stored rows: transactions of consensus blocks and pending ones
 * (sent or received once each, received, gas of each side), token transfers, blocks mined;
 * the current balance is the latest coin balance record; the transactions count is a
 * contract's received ones, else the ones sent or received.
 */
async function recount(knex: Knex, d: MigrationDialect): Promise<void> {
  await knex.transaction(async (trx) => {
    const parts = new Map<string, Parts>();
    const withBalance = new Set<string>();
    // gas_used is numeric on Postgres, text on SQLite: summed as 64-bit integers on both
    const sum = 'SUM(CAST(gas_used AS BIGINT))';
    const txs = `(SELECT from_address, to_address, gas_used FROM transactions WHERE consensus = ? UNION ALL SELECT from_address, to_address, gas_used FROM pending_transactions) t`;
    const raw = async (sql: string, bindings: readonly (string | number | boolean)[] = []) => asRows(d.rawRows(await trx.raw(sql, [...bindings])));
    const get = (a: string): Parts => {
      const p = parts.get(a) ?? zeroParts();
      parts.set(a, p);
      return p;
    };
    const n = (r: Row, c: string): bigint => (r[c] === null || r[c] === undefined ? 0n : toBig(typeof r[c] === 'number' ? r[c] : String(r[c])));
    for (const r of await raw(`SELECT from_address AS a, COUNT(*) AS n, ${sum} AS g FROM ${txs} GROUP BY from_address`, [true])) {
      const p = get(str(r, 'a'));
      p.txAny += n(r, 'n');
      p.gasOut += n(r, 'g');
    }
    for (const r of await raw(`SELECT to_address AS a, COUNT(*) AS n, ${sum} AS g FROM ${txs} WHERE to_address IS NOT NULL GROUP BY to_address`, [true])) {
      const p = get(str(r, 'a'));
      p.txTo += n(r, 'n');
      p.gasIn += n(r, 'g');
    }
    for (const r of await raw(`SELECT to_address AS a, COUNT(*) AS n FROM ${txs} WHERE to_address IS NOT NULL AND to_address <> from_address GROUP BY to_address`, [true])) {
      get(str(r, 'a')).txAny += n(r, 'n');
    }
    for (const r of await raw('SELECT from_address AS a, COUNT(*) AS n FROM token_transfers GROUP BY from_address')) get(str(r, 'a')).transfers += n(r, 'n');
    for (const r of await raw('SELECT to_address AS a, COUNT(*) AS n FROM token_transfers WHERE to_address <> from_address GROUP BY to_address')) {
      get(str(r, 'a')).transfers += n(r, 'n');
    }
    for (const r of await raw('SELECT miner AS a, COUNT(*) AS n FROM blocks GROUP BY miner')) get(str(r, 'a')).validations += n(r, 'n');
    for (const r of await raw('SELECT DISTINCT address AS a FROM coin_balances')) withBalance.add(str(r, 'a'));
    await trx('address_counters').delete();

    const touched = [...new Set<string>([...parts.keys(), ...withBalance])];
    if (touched.length === 0) return;
    const contracts = new Set<string>();
    for (const r of await rowsWhereIn(trx, d, 'addresses', '"hash", "is_contract"', 'hash', touched)) {
      if (bool(r, 'is_contract')) contracts.add(str(r, 'hash'));
    }
    const rows: WriteRow[] = [];
    for (const address of touched) {
      const p = parts.get(address) ?? zeroParts();
      const balance = withBalance.has(address) ? await latestBalance(trx, address) : null;
      if (balance === null && Object.values(p).every((v) => v === 0n)) continue;
      rows.push({
        address,
        tx_any: Number(p.txAny),
        tx_to: Number(p.txTo),
        transfers: Number(p.transfers),
        gas_in: d.big(p.gasIn),
        gas_out: d.big(p.gasOut),
        validations: Number(p.validations),
        transactions_count: Number(contracts.has(address) ? p.txTo : p.txAny),
        balance: balance === null ? null : d.key(balance.value),
        balance_block: balance === null ? null : balance.block,
        listed: balance !== null && balance.value > 0n,
      });
    }
    await upsertRows(trx, d, 'address_counters', ['address'], rows);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('address_counters');
}
