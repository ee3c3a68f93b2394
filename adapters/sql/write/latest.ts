/**
 * Current values as the latest history row per key (by block_number, then seq): the spec of
 * each current table (recompute path: refreshLatest over history), and the same choice made
 * among a batch's own rows (append-only path).
 */
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import type { LatestSpec } from '../sql.ts';

export type LatestSpecs = Readonly<Record<'tokens' | 'addresses' | 'instances' | 'owners' | 'balances', LatestSpec>>;

function specs(d: Dialect): LatestSpecs {
  const same = (...cs: string[]) => cs.map((c) => [c, `"${c}"`] as const);
  const byBlock = '"block_number" DESC, "seq" DESC';
  return {
    tokens: {
      history: 'token_history',
      current: 'tokens',
      key: ['address'],
      columns: same('address', 'type', 'name', 'symbol', 'decimals', 'total_supply', 'icon_url', 'exchange_rate'),
      latestFirst: byBlock,
    },
    addresses: {
      history: 'address_history',
      current: 'addresses',
      key: ['hash'],
      columns: same('hash', 'is_contract', 'name', 'creation_transaction_hash', 'creator_address'),
      latestFirst: byBlock,
    },
    instances: {
      history: 'token_instance_history',
      current: 'token_instances',
      key: ['token_address', 'token_id'],
      columns: same('token_address', 'token_id', 'token_type', 'metadata'),
      latestFirst: byBlock,
    },
    owners: {
      history: 'token_transfer_ids',
      current: 'nft_owners',
      key: ['token_address', 'token_id'],
      columns: [...same('token_address', 'token_id', 'token_type'), ['owner', '"to_address"']],
      latestFirst: '"block_number" DESC, "log_index" DESC',
    },
    balances: {
      history: 'token_balance_history',
      current: 'current_token_balances',
      key: ['holder', 'token_address', 'token_id'],
      columns: same('holder', 'token_address', 'token_id', 'token_type', 'value'),
      latestFirst: byBlock,
      keep: { sql: `("value" > ? OR "token_type" = 'ERC-7984')`, bindings: [d.key(0n)] },
    },
  };
}

const built = new WeakMap<Dialect, LatestSpecs>();

/** The current tables' specs for a dialect (built once: currentRow keeps per-spec column pairs). */
export function latestSpecs(d: Dialect): LatestSpecs {
  let s = built.get(d);
  if (s === undefined) built.set(d, (s = specs(d)));
  return s;
}

/** The latest row per key: `later(a, b)` tells whether a (met after b) supersedes b. */
export function latestRows(rows: readonly WriteRow[], key: readonly string[], later: (a: WriteRow, b: WriteRow) => boolean): WriteRow[] {
  const m = new Map<string, WriteRow>();
  for (const r of rows) {
    const k = key.map((c) => String(r[c])).join('|');
    const prev = m.get(k);
    if (prev === undefined || later(r, prev)) m.set(k, r);
  }
  return [...m.values()];
}

/** History rows come in seq order: a row of a block at least as high supersedes an earlier one. */
export const laterInBlocks = (a: WriteRow, b: WriteRow): boolean => Number(a.block_number) >= Number(b.block_number);

/** The (current column, history column) pairs of a spec's columns (`"x"` = history column x), per spec. */
const columnPairs = new WeakMap<LatestSpec, readonly (readonly [string, string])[]>();

/** A current row from a history row: the spec's columns (`"x"` = history column x). */
export function currentRow(spec: LatestSpec, r: WriteRow): WriteRow {
  let pairs = columnPairs.get(spec);
  if (pairs === undefined) {
    pairs = spec.columns.map(([c, e]) => [c, e.slice(1, -1)] as const);
    columnPairs.set(spec, pairs);
  }
  const out: WriteRow = {};
  for (const [c, h] of pairs) out[c] = r[h] ?? null;
  return out;
}

/** The current rows of a batch's history rows: the latest per key, in the spec's columns. */
export function freshCurrentRows(spec: LatestSpec, rows: readonly WriteRow[], later: (a: WriteRow, b: WriteRow) => boolean = laterInBlocks): WriteRow[] {
  return latestRows(rows, spec.key, later).map((r) => currentRow(spec, r));
}
