/**
 * listContractActivity: transactions to contracts grouped by contract, ordered by the
 * aggregates with a keyset on (sort key, other key, contract). The grouped rows come from the
 * window only: a time window is an index range scan of its consensus transactions
 * (transactions_time); a days window sums the per-contract daily rows of those days (the
 * primary key's date prefix). "Currently has code" joins the addresses table.
 */
import type { Address } from '../../../lib/domain/records.ts';
import type { ContractActivityCursor, ContractActivityFilter, ContractActivityRecord, Page } from '../../../lib/ports.ts';
import type { Binding } from '../dialect.ts';
import { asRows, num, str } from '../rows.ts';
import { toBig } from '../dialect.ts';
import type { SqlContext } from './context.ts';

export async function listContractActivity(
  c: SqlContext,
  filter: ContractActivityFilter,
  page: Page<ContractActivityCursor>,
): Promise<readonly ContractActivityRecord[]> {
  if (page.limit <= 0) return [];
  // gas sums as integers (SQLite keeps wide values as TEXT; a day's or window's gas fits int64)
  const gasOf = (column: string) => c.d.asInteger(column);
  const gasParam = c.d.asInteger('?');
  const bindings: Binding[] = [];
  let grouped: string;
  const { window } = filter;
  if ('time' in window) {
    grouped = `SELECT t.to_address AS contract, COUNT(*) AS n, SUM(${gasOf('t.gas_used')}) AS gas
      FROM transactions t JOIN addresses a ON a.hash = t.to_address AND a.is_contract = ?
      WHERE t.consensus = ? AND t.timestamp >= ? AND t.timestamp <= ? AND t.to_address IS NOT NULL
      GROUP BY t.to_address`;
    bindings.push(true, true, window.time.from, window.time.to);
  } else {
    grouped = `SELECT s.contract AS contract, SUM(s.transactions_count) AS n, SUM(${gasOf('s.gas_used')}) AS gas
      FROM contract_daily_stats s JOIN addresses a ON a.hash = s.contract AND a.is_contract = ?
      WHERE s.date >= ? AND s.date <= ?
      GROUP BY s.contract`;
    bindings.push(true, window.days.from, window.days.to);
  }
  const desc = page.order === 'desc';
  const [first, second] = filter.sort === 'gasUsed' ? (['gas', 'n'] as const) : (['n', 'gas'] as const);
  const dir = desc ? 'DESC' : 'ASC';
  const lt = desc ? '<' : '>';
  const gt = desc ? '>' : '<';
  const param = (col: 'n' | 'gas') => (col === 'gas' ? gasParam : '?');
  const value = (col: 'n' | 'gas', k: ContractActivityCursor): Binding => (col === 'gas' ? k.gasUsed.toString() : k.transactionsCount);
  let where = '';
  const after = page.after;
  if (after !== null) {
    where = `WHERE (${first} ${lt} ${param(first)} OR (${first} = ${param(first)} AND (${second} ${lt} ${param(second)} OR (${second} = ${param(second)} AND contract ${gt} ?))))`;
    bindings.push(value(first, after), value(first, after), value(second, after), value(second, after), after.contract);
  }
  const sql = `SELECT contract, n, CAST(gas AS TEXT) AS gas_text FROM (${grouped}) g ${where}
    ORDER BY ${first} ${dir}, ${second} ${dir}, contract ${desc ? 'ASC' : 'DESC'} LIMIT ?`;
  bindings.push(Math.floor(page.limit));
  const rows = asRows(await c.raw(sql, bindings));
  return rows.map((r) => ({ contract: str(r, 'contract') as Address, transactionsCount: num(r, 'n'), gasUsed: toBig(r.gas_text) }));
}
