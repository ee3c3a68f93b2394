/**
 * npm run bench:db — the SQL store under a large synthetic chain (issue 4, "Benchmark").
 *
 * Generates a deterministic chain of BENCH_SCALE × 1,000,000 transactions, each with one
 * ERC-20 transfer, across BENCH_SCALE × 100,000 addresses, with hot keys: one address in 10 % of
 * the transfers, a miner of 60 % of the blocks, an airdrop sink holding BENCH_SCALE × 60,000
 * tokens, and tokens taking 20 % / 10 % / 10 % of the transfers. It is bulk-loaded through the
 * DataSink (writeBlocks, BENCH_BATCH blocks a call) into each store of BENCH_STORES (default
 * sqlite,postgres): SQLite in a temp file, Postgres in a fresh schema (dropped after). Then, for
 * every list endpoint — through createExplorer(...).handle with the response cache off, and
 * directly through the DataSource — p50/p99 of the first page and of page BENCH_DEEP_PAGE
 * (default 1000, reached by walking the cursor chain once) at BENCH_CONCURRENCY (default 16)
 * concurrent callers, and the plan of each statement a list runs, flagging full scans and sorts.
 * The tokens' contracts have address records, as on a chain indexed from genesis
 * (BENCH_CONTRACT_RECORDS=0: none, the data set before RESULTS entry 30).
 *
 *   BENCH_SCALE=0.05 npm run bench:db      # a quick look
 *
 * Targets (issue 4): p99 ≤ 10 ms on both stores; page 1000 ≤ 1.3 × page 1.
 *
 * Then one large CSV export per store (issue 10): BENCH_CSV_ROWS (default 100,000) token
 * transfers streamed, with RSS before, at its peak and after (flat memory: the export is read
 * a page at a time, never held whole). Run node with --expose-gc for a settled "before".
 *
 * And decoding's cost (issue 29): BENCH_BEFORE=<dir> holding an older tree's lib/ (e.g. `git archive
 * ccd9132^ lib | tar -x -C <dir>`, with <dir>/node_modules linked to this one's) — the cold first
 * page of GET /transactions (50 transactions, each decoded, with the proxy view) by this code and
 * by that one's createExplorer over the same store, interleaved rounds at one caller, medians and
 * their ratio (target ≤ 1.10).
 *
 * And the CPU of one large answer (issue 13): the unpaged token balances of the hot address,
 * BENCH_CPU_SAMPLES (default 100) sequential requests, ms of process CPU per request (≤ 5).
 *
 * And, with postgres among the stores, the reads through a streaming replica (issue 31,
 * bench/replica.ts, also `npm run bench:replica`; BENCH_REPLICA=0 leaves it out).
 */
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address, AddressWrite, BlockBundle, Hash, Hex, TokenBalanceRecord, TokenRecord, TokenTransferRecord, TransactionRecord } from '../lib/domain/records.ts';
import type { VersionedDataSource } from '../lib/ports.ts';
import type { JsonValue } from '../lib/json.ts';
import { createExplorer, EMPTY_HEX, hex, toJson } from '../lib/index.ts';
import { openSqlStore } from '../adapters/sql/index.ts';
import type { SqlStore } from '../adapters/sql/index.ts';
import type { Knex } from 'knex';
import { coldTable } from './guard/coldTable.ts';
import type { ListFigures, StoreFigures } from './guard/figures.ts';
import { drawColdPages, entryDraft, guard, PLOT_PATH } from './guard/run.ts';

const env = (k: string, d: number): number => {
  const v = process.env[k];
  return v === undefined || v === '' ? d : Number(v);
};
const SCALE = env('BENCH_SCALE', 1);
const TXS = Math.round(1_000_000 * SCALE);
const ADDRESSES = Math.max(1000, Math.round(100_000 * SCALE));
const AIRDROPS = Math.max(100, Math.round(60_000 * SCALE));
const PER_BLOCK = env('BENCH_TX_PER_BLOCK', 10);
const BATCH = env('BENCH_BATCH', 100);
const CONCURRENCY = env('BENCH_CONCURRENCY', 16);
/** BENCH_PG_POOL=<n>: Postgres connections per pool (default BENCH_CONCURRENCY, one per caller) */
const PG_POOL = env('BENCH_PG_POOL', CONCURRENCY);
const SAMPLES = env('BENCH_SAMPLES', 800);
/** samples of the one-caller run of each list's first page (and of its raw statements) */
const SAMPLES_ONE = env('BENCH_SAMPLES_ONE', 300);
const DEEP = env('BENCH_DEEP_PAGE', 1000);
const LIMIT = 50;
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** BENCH_PG_SCHEMA=<name>: keep the Postgres data set in that schema, and reuse it when it holds this scale's chain */
const KEEP_PG = process.env.BENCH_PG_SCHEMA === undefined || process.env.BENCH_PG_SCHEMA === '' ? undefined : process.env.BENCH_PG_SCHEMA;
const SCHEMA = KEEP_PG ?? `scoutkit_bench_${process.pid}`;
/** BENCH_RECOMPUTE=1: write through the recompute path only (the writer before the append-only fast path) */
const RECOMPUTE = process.env.BENCH_RECOMPUTE === '1';
/** BENCH_BULK=0: load without beginBulk (every index kept up while writing, the writer before bulk mode) */
const BULK = process.env.BENCH_BULK !== '0';
/** BENCH_SQLITE_FILE=<path>: keep the SQLite data set there, and reuse it when it holds this scale's chain */
const KEEP_SQLITE = process.env.BENCH_SQLITE_FILE === undefined || process.env.BENCH_SQLITE_FILE === '' ? undefined : process.env.BENCH_SQLITE_FILE;
/** BENCH_CASES=<regex>: measure only the list cases whose name matches (e.g. 'blocks|search') */
const CASES = process.env.BENCH_CASES === undefined || process.env.BENCH_CASES === '' ? undefined : new RegExp(process.env.BENCH_CASES);
/** BENCH_LOAD_ONLY=1: load and report the load speed, no latency measurements */
const LOAD_ONLY = process.env.BENCH_LOAD_ONLY === '1';
/** BENCH_LOAD_STATEMENTS=1: time the load's statements (by shape: repeated value lists folded) and print the costliest */
const LOAD_STATEMENTS = process.env.BENCH_LOAD_STATEMENTS === '1';
/** BENCH_CONTRACT_RECORDS=0: no address records for the tokens' contracts (the data set before RESULTS entry 30) */
const CONTRACT_RECORDS = process.env.BENCH_CONTRACT_RECORDS !== '0';

// ---- deterministic synthetic chain -------------------------------------------------------------

let seed = 0x2545f491;
function rand(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
}
const digits = (n: number | bigint, width: number): string => n.toString(16).padStart(width, '0');
const addr = (i: number): Address => `0x${digits(i + 1, 40)}` as Address;
const hash = (tag: number, i: number): Hash => `0x${digits(tag, 8)}${digits(i, 56)}` as Hash;
/** HOT[0]: sender of 10 % of transactions and transfers; HOT[1]: the airdrop sink; HOT[2..4]: 1 % each */
const HOT = [0, 1, 2, 3, 4].map(addr);
const MINERS = [HOT[0], addr(5), addr(6)];
const COMMON_TOKENS = 1000;
const token = (i: number): Address => `0x${'7'.repeat(8)}${digits(i, 32)}` as Address;
const HOT_TOKENS = [token(0), token(1), token(2)];
const TRANSFER = '0xa9059cbb' as Hex;
/** an age window over the middle half of the chain's blocks (12 s apart from 1,700,000,000) */
const AGE_FROM = new Date((1_700_000_000 + Math.floor(TXS / PER_BLOCK / 4) * 12) * 1000).toISOString();
const AGE_TO = new Date((1_700_000_000 + Math.floor((TXS / PER_BLOCK) * 0.75) * 12) * 1000).toISOString();
const METHODS = [TRANSFER, '0x095ea7b3', '0x23b872dd', '0x40c10f19'] as Hex[];

function pickAddress(): Address {
  const r = rand();
  if (r < 0.03) return HOT[2 + Math.floor(rand() * 3)];
  return addr(8 + Math.floor(rand() * (ADDRESSES - 8)));
}
function pickToken(): number {
  const r = rand();
  return r < 0.2 ? 0 : r < 0.3 ? 1 : r < 0.4 ? 2 : 3 + Math.floor(rand() * (COMMON_TOKENS - 3));
}
const tokenRecord = (i: number): TokenRecord => ({
  address: token(i), type: 'ERC-20', name: `Token ${i}`, symbol: `T${i}`, decimals: 18n, totalSupply: 10n ** 30n,
  holdersCount: 0n, iconUrl: null, exchangeRate: null,
});

const balances = new Map<string, bigint>();
const knownTokens = new Set<number>();
let airdrop = 0;
/** coin balances: every sender starts at 100 ETH and pays each fee (no rand(): the chain stays the same) */
const coins = new Map<Address, bigint>();
function block(n: number): BlockBundle {
  const blockHash = hash(0xb10c, n);
  const timestamp = 1_700_000_000 + n * 12;
  const transactions: TransactionRecord[] = [];
  const tokenTransfers: TokenTransferRecord[] = [];
  const tokenBalances = new Map<string, TokenBalanceRecord>();
  const tokens: TokenRecord[] = [];
  const addresses: AddressWrite[] = [];
  const coinBalances = new Map<Address, bigint>();
  const count = Math.min(PER_BLOCK, TXS - n * PER_BLOCK);
  for (let i = 0; i < count; i++) {
    let from = pickAddress();
    let to = pickAddress();
    let tok = pickToken();
    const r = rand();
    if (r < 0.1) {
      // the hot address sends 10 % of the transactions (each with its transfer): at BENCH_SCALE=1,
      // 100,000 transactions and 100,000 transfers, the address lists' hot case (issue 8)
      from = HOT[0];
    } else if (r < 0.1 + (AIRDROPS / TXS) * 1.05 && airdrop < AIRDROPS) {
      to = HOT[1]; // an airdrop of a fresh token
      tok = COMMON_TOKENS + airdrop++;
    }
    const tokenAddress = token(tok);
    const amount = BigInt(1 + Math.floor(rand() * 1e6)) * 10n ** 12n;
    const methodId = METHODS[Math.floor(rand() * METHODS.length)];
    const txHash = hash(0x7a, n * PER_BLOCK + i);
    if (!knownTokens.has(tok)) {
      knownTokens.add(tok);
      tokens.push(tokenRecord(tok));
      // the contract's record, as the indexer writes one for each contract it sees created (a chain
      // indexed from genesis); the creating transaction stands in for a deployment
      if (CONTRACT_RECORDS) addresses.push({ hash: tokenAddress, isContract: true, name: null, creationTransactionHash: txHash, creatorAddress: from, blockNumber: n });
    }
    transactions.push({
      hash: txHash, blockNumber: n, blockHash, index: i, timestamp, baseFeePerGas: 10n ** 9n, from, to: tokenAddress, createdContract: null,
      value: 0n, gas: 100_000n, gasPrice: 2n * 10n ** 9n, maxFeePerGas: null, maxPriorityFeePerGas: null, gasUsed: 50_000n,
      status: 'ok', error: null, revertReason: null, nonce: n, type: 0, input: `${methodId}${'0'.repeat(128)}` as Hex, methodId,
      insertedAt: timestamp * 1000, kinds: ['contract_call', 'token_transfer'], hasErrorInInternalTransactions: false,
    });
    tokenTransfers.push({
      transactionHash: txHash, blockHash, blockNumber: n, transactionIndex: i, logIndex: i, timestamp, from, to, tokenAddress,
      tokenType: 'ERC-20', amount, tokenIds: [], amounts: [], methodId,
    });
    const coin = (coins.get(from) ?? 100n * 10n ** 18n) - 50_000n * 2n * 10n ** 9n;
    coins.set(from, coin);
    coinBalances.set(from, coin);
    for (const [holder, delta] of [[from, -amount], [to, amount]] as const) {
      const key = `${holder}|${tokenAddress}`;
      const value = (balances.get(key) ?? 10n ** 30n) + delta;
      balances.set(key, value);
      tokenBalances.set(key, { holder, tokenAddress, tokenType: 'ERC-20', tokenId: null, blockNumber: n, value });
    }
  }
  return {
    block: {
      number: n, hash: blockHash, parentHash: n === 0 ? hash(0, 0) : hash(0xb10c, n - 1), timestamp,
      miner: rand() < 0.6 ? MINERS[0] : MINERS[1 + (n % 2)], size: 1000,
      gasLimit: 30_000_000n, gasUsed: BigInt(count) * 50_000n, baseFeePerGas: 10n ** 9n, difficulty: 0n, totalDifficulty: 0n,
      nonce: hex('0x0000000000000000'), extraData: EMPTY_HEX, stateRoot: null, consensus: true, unclesHashes: [], transactionsCount: count,
      internalTransactionsCount: 0, transactionFees: 0n, burntFees: 0n, priorityFee: 0n,
    },
    transactions, internalTransactions: [], logs: [], tokenTransfers,
    tokens, tokenBalances: [...tokenBalances.values()], coinBalances: [...coinBalances].map(([address, value]) => ({ address, blockNumber: n, value })), tokenInstances: [], addresses, stateChanges: [],
  };
}

// ---- the list cases ------------------------------------------------------------------------------

/** One list, read directly (DataSource) or through the explorer; `next` = the cursor after a page. */
interface ListCase {
  readonly name: string;
  /** a page (after = null: the first); returns the next cursor, null at the end */
  readonly page: (after: unknown) => Promise<{ readonly next: unknown; readonly size: number }>;
}

type Cursor = unknown;
function dsCase<T>(name: string, list: (ds: VersionedDataSource, after: never) => Promise<readonly T[]>, cursor: (last: T) => Cursor, ds: VersionedDataSource): ListCase {
  return {
    name,
    page: async (after) => {
      const rows = await list(ds, after as never);
      const last = rows[rows.length - 1];
      return { next: rows.length < LIMIT || last === undefined ? null : cursor(last), size: rows.length };
    },
  };
}

type Handle = ReturnType<typeof createExplorer>['handle'];
function apiCase(name: string, path: string, query: Record<string, string>, handle: Handle): ListCase {
  return {
    name: `GET ${path.replace(/0x[0-9a-f]{40}/g, (a) => `{${a === HOT[0] ? 'hot' : a === HOT[1] ? 'airdropped' : a === HOT_TOKENS[0] ? 'hot token' : 'addr'}}`)}${Object.keys(query).length === 0 ? '' : `?${new URLSearchParams(query).toString()}`}`,
    page: async (after) => {
      const res = await handle({ path: `/api/v2${path}`, query: { ...query, ...(after as Record<string, string> | null) } });
      const text = toJson(res.body); // the host sends this text: part of the cost
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
      const body = res.body as { items?: JsonValue[]; next_page_params?: Record<string, JsonValue> | null } | JsonValue[];
      if (Array.isArray(body)) return { next: null, size: body.length };
      const params = body.next_page_params;
      const next = params === null || params === undefined ? null : Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === null ? 'null' : String(v)]));
      return { next, size: body.items?.length ?? 0 };
    },
  };
}

function cases(ds: VersionedDataSource, handle: Handle): ListCase[] {
  const block = (b: { number: number }) => ({ number: b.number });
  const tx = (t: { blockNumber: number | null; index: number | null }) => ({ blockNumber: t.blockNumber ?? 0, index: t.index ?? 0 });
  const tt = (t: { blockNumber: number; logIndex: number }) => ({ blockNumber: t.blockNumber, logIndex: t.logIndex });
  const bal = (b: { value: bigint; tokenAddress: Address; tokenId: bigint | null }) => ({ value: b.value, tokenAddress: b.tokenAddress, tokenId: b.tokenId });
  const tok = (t: { holdersCount: bigint; name: string | null; address: Address }) => ({ holdersCount: t.holdersCount, name: t.name, address: t.address });
  const page = (after: never) => ({ after, limit: LIMIT, order: 'desc' as const });
  const acct = (r: { balance: bigint; address: Address; transactionsCount: bigint }) => ({ balance: r.balance, address: r.address, transactionsCount: r.transactionsCount });
  return [
    apiCase('blocks', '/blocks', { type: 'block' }, handle),
    dsCase('ds listBlocks', (d, a) => d.listBlocks({ kind: 'block' }, page(a)), block, ds),
    apiCase('blocks-validated', `/addresses/${HOT[0]}/blocks-validated`, {}, handle),
    dsCase('ds listBlocks miner={hot}', (d, a) => d.listBlocks({ kind: 'block', miner: HOT[0] }, page(a)), block, ds),
    apiCase('transactions', '/transactions', { filter: 'validated' }, handle),
    dsCase('ds listTransactions', (d, a) => d.listTransactions({ status: 'validated' }, page(a)), tx, ds),
    apiCase('transactions method', '/transactions', { filter: 'validated', method: TRANSFER }, handle),
    dsCase('ds listTransactions methodIds', (d, a) => d.listTransactions({ status: 'validated', methodIds: [TRANSFER] }, page(a)), tx, ds),
    apiCase('transactions type', '/transactions', { filter: 'validated', type: 'token_transfer' }, handle),
    dsCase('ds listTransactions kinds', (d, a) => d.listTransactions({ status: 'validated', kinds: ['token_transfer'] }, page(a)), tx, ds),
    apiCase('token-transfers', '/token-transfers', {}, handle),
    dsCase('ds listTokenTransfers', (d, a) => d.listTokenTransfers({}, page(a)), tt, ds),
    apiCase('token-transfers type', '/token-transfers', { type: 'ERC-20' }, handle),
    dsCase('ds listTokenTransfers types', (d, a) => d.listTokenTransfers({ types: ['ERC-20'] }, page(a)), tt, ds),
    apiCase('token transfers', `/tokens/${HOT_TOKENS[0]}/transfers`, {}, handle),
    dsCase('ds listTokenTransfers token={hot}', (d, a) => d.listTokenTransfers({ tokenAddress: HOT_TOKENS[0] }, page(a)), tt, ds),
    apiCase('address tokens', `/addresses/${HOT[1]}/tokens`, { type: 'ERC-20' }, handle),
    dsCase('ds listTokenBalances holder={airdropped}', (d, a) => d.listTokenBalances({ holder: HOT[1] }, page(a)), bal, ds),
    apiCase('address token-balances (unpaged)', `/addresses/${HOT[0]}/token-balances`, {}, handle),
    // the address lists (issue 8) of the hot address: 10 % of the chain's transactions and transfers
    apiCase('address transactions', `/addresses/${HOT[0]}/transactions`, {}, handle),
    dsCase('ds listTransactions address={hot}', (d, a) => d.listTransactions({ status: 'validated', address: HOT[0] }, page(a)), tx, ds),
    apiCase('address transactions from', `/addresses/${HOT[0]}/transactions`, { filter: 'from' }, handle),
    apiCase('address token-transfers', `/addresses/${HOT[0]}/token-transfers`, {}, handle),
    dsCase('ds listTokenTransfers address={hot}', (d, a) => d.listTokenTransfers({ address: HOT[0] }, page(a)), tt, ds),
    apiCase('address token-transfers ERC-20', `/addresses/${HOT[0]}/token-transfers`, { type: 'ERC-20', filter: 'from' }, handle),
    apiCase('address coin-balance-history', `/addresses/${HOT[0]}/coin-balance-history`, {}, handle),
    // chain statistics: counters and daily rows kept at write time, the newest 201 blocks (compare with /blocks)
    apiCase('stats', '/stats', {}, handle),
    apiCase('top accounts', '/addresses', {}, handle),
    dsCase('ds listAccounts balance', (d, a) => d.listAccounts({ sort: 'balance' }, page(a)), acct, ds),
    apiCase('top accounts by transactions', '/addresses', { sort: 'transactions_count', order: 'desc' }, handle),
    dsCase('ds listAccounts transactionsCount', (d, a) => d.listAccounts({ sort: 'transactionsCount' }, page(a)), acct, ds),
    apiCase('address counters (one key lookup)', `/addresses/${HOT[0]}/counters`, {}, handle),
    // advanced filters: index-backed combinations, then two checked on the rows (bounded by SCAN_BUDGET)
    apiCase('advanced filters', '/advanced-filters', {}, handle),
    apiCase('advanced filters address', '/advanced-filters', { from_address_hashes_to_include: HOT[0], to_address_hashes_to_include: HOT[0] }, handle),
    apiCase('advanced filters method', '/advanced-filters', { methods: TRANSFER }, handle),
    apiCase('advanced filters token', '/advanced-filters', { token_contract_address_hashes_to_include: HOT_TOKENS[0] }, handle),
    apiCase('advanced filters type+age', '/advanced-filters', { transaction_types: 'ERC-20', age_from: AGE_FROM, age_to: AGE_TO }, handle),
    apiCase('advanced filters exclude (rows)', '/advanced-filters', { from_address_hashes_to_exclude: HOT[0] }, handle),
    apiCase('advanced filters amount (rows)', '/advanced-filters', { amount_from: '0.9', token_contract_address_hashes_to_include: HOT_TOKENS[0] }, handle),
    apiCase('tokens', '/tokens/', {}, handle),
    dsCase('ds listTokens', (d, a) => d.listTokens({}, page(a)), tok, ds),
    apiCase('token holders', `/tokens/${HOT_TOKENS[0]}/holders`, {}, handle),
    // a prefix: 'T12' matches 1,111 tokens (of 61,000 at scale 1, 13,000 at 0.2), 'Token 1' 11,111 / 4,111
    apiCase('tokens q', '/tokens/', { q: 'T12' }, handle),
    dsCase('ds listTokens prefix=T12', (d, a) => d.listTokens({ prefix: 'T12' }, page(a)), tok, ds),
    apiCase('search', '/search', { q: 'T12' }, handle),
    apiCase('tokens q dense', '/tokens/', { q: 'Token 1' }, handle),
    dsCase('ds listTokens prefix=Token 1', (d, a) => d.listTokens({ prefix: 'Token 1' }, page(a)), tok, ds),
  ];
}

// ---- measurement --------------------------------------------------------------------------------

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface Stats {
  readonly p50: number;
  readonly p99: number;
  /** requests per second over the whole measurement */
  readonly rps: number;
}

async function measure(fn: () => Promise<unknown>, concurrency = CONCURRENCY, samples = SAMPLES): Promise<Stats> {
  for (let i = 0; i < 20; i++) await fn(); // warm
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < samples) {
        next++;
        const t = performance.now();
        await fn();
        times.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - t0;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), rps: (samples / wall) * 1000 };
}

interface Statement {
  readonly sql: string;
  readonly bindings: unknown[];
}

/** The statements one call runs through the store's reader, in order (knex 'query' events). */
async function statements(store: SqlStore, run: () => Promise<unknown>): Promise<Statement[]> {
  const captured: Statement[] = [];
  const listener = (q: unknown) => {
    if (typeof q === 'object' && q !== null && 'sql' in q && typeof q.sql === 'string') {
      captured.push({ sql: q.sql, bindings: 'bindings' in q && Array.isArray(q.bindings) ? q.bindings : [] });
    }
  };
  store.reader.on('query', listener);
  try {
    await run();
  } finally {
    store.reader.removeListener('query', listener);
  }
  return captured;
}

/**
 * The same statements run again as raw SQL through the same knex and driver, one after another as
 * the page runs them: the floor of the page's cost, with no query building, row mapping or JSON.
 */
function rawRun(store: SqlStore, captured: readonly Statement[]): () => Promise<unknown> {
  // knex.raw takes `?` placeholders; Postgres's text carries $1, $2… (`?` keeps the order they bind in)
  const texts = captured.map((q) => ({ sql: store.dialect === 'sqlite' ? q.sql : q.sql.replace(/\$\d+/g, '?'), bindings: q.bindings as Knex.RawBinding[] }));
  return async () => {
    for (const q of texts) await store.reader.raw(q.sql, q.bindings);
  };
}

/** EXPLAIN every statement one call runs; flags full scans and sorts. */
async function plans(store: SqlStore, run: () => Promise<unknown>): Promise<string[]> {
  const captured = (await statements(store, run)).filter((q) => /^\s*select/i.test(q.sql));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const q of captured) {
    if (/data_version/.test(q.sql) || seen.has(q.sql)) continue;
    seen.add(q.sql);
    const bindings = q.bindings.map((b: unknown) => (typeof b === 'bigint' ? b.toString() : b)) as (string | number)[];
    const sql = store.dialect === 'sqlite' ? `EXPLAIN QUERY PLAN ${q.sql}` : `EXPLAIN ${q.sql.replace(/\$\d+/g, '?')}`;
    const result: unknown = await store.reader.raw(sql, bindings);
    const rows: unknown = Array.isArray(result) ? result : typeof result === 'object' && result !== null && 'rows' in result ? result.rows : [];
    const lines = (Array.isArray(rows) ? rows : []).map((r: unknown) => (typeof r === 'object' && r !== null ? String(Object.values(r).pop()).trim() : ''));
    const text = lines.join(' | ');
    const bad =
      store.dialect === 'sqlite'
        ? // SCAN seekN: reading back a branch of seekPages (a LIMITed co-routine), not a table
          lines.some((l) => (/^SCAN \S+$/.test(l) && !/^SCAN seek\d+$/.test(l)) || /^SCAN \S+ AS \S+$/.test(l) || /TEMP B-TREE/.test(l))
        : // a plain Sort node sorts everything below it; an Incremental Sort on a presorted key under the LIMIT does not
          lines.some((l) => /Seq Scan/.test(l) || (/(^|-> +)Sort +\(/.test(l) && !/Incremental/.test(l)));
    out.push(`${bad ? '!! FULL SCAN / SORT !! ' : ''}${q.sql.slice(0, 90).replace(/\s+/g, ' ')}… → ${text.slice(0, 400)}`);
  }
  return out;
}

/** a data set kept by an earlier run holds this one's chain: the same height, with contract records or without */
async function holdsThisChain(store: SqlStore): Promise<boolean> {
  return (await store.getHighestBlockNumber()) === Math.ceil(TXS / PER_BLOCK) - 1 && (await store.getAddresses([token(0)])).length === (CONTRACT_RECORDS ? 1 : 0);
}

async function open(name: string): Promise<{ store: SqlStore; loaded: boolean; drop: () => Promise<void> }> {
  if (name === 'sqlite') {
    const file = KEEP_SQLITE ?? join(process.env.BENCH_DIR ?? tmpdir(), `scoutkit-bench-${process.pid}.sqlite`);
    const files = [file, `${file}-wal`, `${file}-shm`];
    if (KEEP_SQLITE !== undefined && existsSync(file)) {
      // a data set kept by an earlier run of the same scale: measure it again without loading
      const store = await openSqlStore(`sqlite:${file}`);
      if (await holdsThisChain(store)) return { store, loaded: true, drop: () => store.close() };
      await store.close();
    }
    for (const f of files) rmSync(f, { force: true });
    const store = await openSqlStore(`sqlite:${file}`, { recomputeCurrent: RECOMPUTE });
    // bulk-load settings of the benchmark only (never the store's defaults): no fsync, a big page cache
    await store.knex.raw('PRAGMA synchronous = OFF');
    await store.knex.raw('PRAGMA cache_size = -1048576');
    return { store, loaded: false, drop: async () => { await store.close(); if (KEEP_SQLITE === undefined) for (const f of files) rmSync(f, { force: true }); } };
  }
  if (KEEP_PG !== undefined) {
    // a data set kept by an earlier run of the same scale: measure it again without loading
    const store = await openSqlStore(DATABASE_URL, { searchPath: SCHEMA, poolSize: PG_POOL });
    if (await holdsThisChain(store)) return { store, loaded: true, drop: () => store.close() };
    await store.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [SCHEMA]);
    await store.close();
  }
  const store = await openSqlStore(DATABASE_URL, { searchPath: SCHEMA, poolSize: PG_POOL, recomputeCurrent: RECOMPUTE });
  return {
    store,
    loaded: false,
    drop: async () => {
      if (KEEP_PG !== undefined) return store.close();
      try {
        await store.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [SCHEMA]);
      } finally {
        await store.close();
      }
    },
  };
}

interface Line {
  readonly store: string;
  readonly name: string;
  readonly first: Stats;
  readonly deep: Stats | null;
  readonly pages: number;
  /** the first page at one caller */
  readonly one: Stats;
  /** the first page's statements run raw at one caller (API cases only), and how many there are */
  readonly raw: { readonly stats: Stats; readonly statements: number } | null;
}

/** the load's rates, for the guard */
type LoadFigures = StoreFigures['load'];

async function loadChain(store: SqlStore, name: string): Promise<LoadFigures> {
  seed = 0x2545f491;
  balances.clear();
  coins.clear();
  knownTokens.clear();
  airdrop = 0;
  const blocks = Math.ceil(TXS / PER_BLOCK);
  let genMs = 0;
  let records = 0;
  const timed = LOAD_STATEMENTS ? timeStatements(store) : null;
  /** the main thread's busy time inside writeBlocks (JS; the drivers' I/O and SQLite's own threads wait idle) */
  let busyMs = 0;
  const t0 = performance.now();
  // a bulk catch-up, as the indexer starts one (DataSink.beginBulk): read-only indexes deferred to settle
  if (BULK) await store.beginBulk();
  for (let n = 0; n < blocks; n += BATCH) {
    const g0 = performance.now();
    const batch: BlockBundle[] = [];
    for (let k = n; k < Math.min(blocks, n + BATCH); k++) batch.push(block(k));
    genMs += performance.now() - g0;
    for (const b of batch) records += 1 + b.transactions.length + b.tokenTransfers.length + b.tokenBalances.length + b.tokens.length;
    const e0 = performance.eventLoopUtilization();
    await store.writeBlocks(batch);
    busyMs += performance.eventLoopUtilization(e0).active;
    if ((n / BATCH) % 20 === 0) {
      const s = (performance.now() - t0) / 1000;
      process.stderr.write(`\r${name}: block ${n}/${blocks} (${Math.round((n * PER_BLOCK) / s)} tx/s)   `);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const writeS = seconds - genMs / 1000;
  process.stderr.write('\n');
  console.log(
    `${name}: loaded ${blocks} blocks, ${TXS} transactions, ${TXS} token transfers, ${records} records in ${seconds.toFixed(1)} s: ` +
      `${Math.round(TXS / seconds)} tx/s, ${Math.round(records / seconds)} records/s overall; ` +
      `generation ${(genMs / 1000).toFixed(1)} s (${Math.round(records / (genMs / 1000))} records/s), ` +
      `writeBlocks ${writeS.toFixed(1)} s (${Math.round(records / writeS)} records/s)`,
  );
  timed?.report(writeS, busyMs / 1000);
  // what the indexer does on catching up after a bulk load (DataSink.settle)
  const a0 = performance.now();
  await store.settle();
  const settleS = (performance.now() - a0) / 1000;
  console.log(
    `${name}: settle (${BULK ? 'deferred indexes rebuilt, ' : ''}${name === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE'}) ${settleS.toFixed(1)} s; ` +
      `bulk ${BULK ? 'on' : 'off'}: ${Math.round(TXS / seconds)} tx/s without settle, ${Math.round(TXS / (seconds + settleS))} tx/s with settle`,
  );
  return { txPerS: Math.round(TXS / seconds), txPerSWithSettle: Math.round(TXS / (seconds + settleS)) };
}

/**
 * Time every statement of the writer's connection from its 'query' to its 'query-response' event
 * (the database and the driver), grouped by shape; the rest of writeBlocks is JS (building rows
 * and statements, knex's compilation).
 */
function timeStatements(store: SqlStore): { report(writeS: number, busyS: number): void } {
  const started = new Map<unknown, { shape: string; t: number }>();
  const byShape = new Map<string, { n: number; ms: number }>();
  const shapeOf = (sql: string): string =>
    sql
      .replace(/\$\d+/g, '?')
      .replace(/\s+/g, ' ')
      .replace(/\?(, \?)+/g, '?…')
      .replace(/(select \?… union all )+select \?…/gi, 'select ?… union all …')
      .replace(/(\([^()]*\)( (or|OR) |, ))+\([^()]*\)/g, '(…)+')
      .slice(0, 150);
  const uid = (q: unknown): unknown => (typeof q === 'object' && q !== null && '__knexQueryUid' in q ? q.__knexQueryUid : undefined);
  store.knex.on('query', (q: { sql: string }) => started.set(uid(q), { shape: shapeOf(q.sql), t: performance.now() }));
  store.knex.on('query-response', (_r: unknown, q: unknown) => {
    const s = started.get(uid(q));
    if (s === undefined) return;
    started.delete(uid(q));
    const e = byShape.get(s.shape) ?? { n: 0, ms: 0 };
    e.n += 1;
    e.ms += performance.now() - s.t;
    byShape.set(s.shape, e);
  });
  return {
    report(writeS, busyS) {
      const rows = [...byShape].sort((a, b) => b[1].ms - a[1].ms);
      const total = rows.reduce((acc, [, e]) => acc + e.ms, 0);
      const count = rows.reduce((acc, [, e]) => acc + e.n, 0);
      console.log(`statements: ${count} taking ${(total / 1000).toFixed(1)} s of writeBlocks' ${writeS.toFixed(1)} s (the rest: JS, and BEGIN/COMMIT, which emit no response)`);
      // the event loop's active time: JS on the main thread (in or out of a statement's span); the rest it waited
      console.log(`main thread busy ${busyS.toFixed(1)} s of writeBlocks' ${writeS.toFixed(1)} s (${((100 * busyS) / writeS).toFixed(0)} %: the JS share)`);
      for (const [shape, e] of rows.slice(0, 25)) console.log(`  ${(e.ms / 1000).toFixed(2)} s  ${e.n}×  ${shape}`);
    },
  };
}

const BEFORE = process.env.BENCH_BEFORE === undefined || process.env.BENCH_BEFORE === '' ? undefined : process.env.BENCH_BEFORE;
const DECODE_ROUNDS = env('BENCH_DECODE_ROUNDS', 15);

/** issue 29: a cold page of 50 decoded transactions, this code against BENCH_BEFORE's, interleaved at one caller */
async function decodedListBench(name: string, store: SqlStore, after: Handle): Promise<void> {
  if (BEFORE === undefined) return;
  const old = (await import(join(BEFORE, 'lib/index.ts'))) as { createExplorer: typeof createExplorer };
  const before = old.createExplorer({ chains: { '1': store }, cache: { maxEntries: 0 } }).handle;
  const page = (h: Handle) => async () => {
    const r = await h({ path: '/api/v2/transactions', query: {} });
    if (r.status !== 200) throw new Error(`GET /transactions: ${r.status}`);
    return toJson(r.body);
  };
  const sample = JSON.parse(await page(after)()) as { items: { method: string | null; decoded_input: unknown }[] };
  const decoded = sample.items.filter((x) => x.decoded_input !== null).length;
  const p50s: { before: number[]; after: number[] } = { before: [], after: [] };
  for (let r = 0; r < DECODE_ROUNDS; r++) {
    for (const [side, h] of (r % 2 === 0 ? [['before', before], ['after', after]] : [['after', after], ['before', before]]) as [keyof typeof p50s, Handle][]) {
      p50s[side].push((await measure(page(h), 1, 100)).p50);
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const ratios = p50s.after.map((a, i) => a / (p50s.before[i] ?? NaN));
  console.log(`\n${name}: cold GET /transactions (${sample.items.length} rows, ${decoded} with decoded_input), ${DECODE_ROUNDS} interleaved rounds of 100 at one caller`);
  console.log(`| store | before p50 (median of rounds) | after p50 | after ÷ before (median of per-round ratios) | ≤ 1.10 |`);
  console.log('|---|---|---|---|---|');
  const ratio = med(ratios);
  console.log(`| ${name} | ${med(p50s.before).toFixed(3)} ms | ${med(p50s.after).toFixed(3)} ms | ${ratio.toFixed(3)} | ${ratio <= 1.1 ? 'yes' : 'NO'} |`);
}

async function bench(name: string): Promise<{ lines: Line[]; load: LoadFigures }> {
  const { store, loaded, drop } = await open(name);
  try {
    let load: LoadFigures = null;
    if (loaded) console.log(`${name}: reusing the data set in ${name === 'sqlite' ? KEEP_SQLITE : `schema ${SCHEMA}`}`);
    else load = await loadChain(store, name);
    if (LOAD_ONLY) return { lines: [], load };
    const explorer = createExplorer({ chains: { '1': store }, cache: { maxEntries: 0 } });
    await decodedListBench(name, store, explorer.handle);
    const lines: Line[] = [];
    for (const c of cases(store, explorer.handle).filter((x) => CASES === undefined || CASES.test(x.name))) {
      // walk the cursor chain once to the deep page
      const w0 = performance.now();
      let after: unknown = null;
      let pages = 1;
      for (; pages < DEEP; pages++) {
        const { next } = await c.page(after);
        if (next === null) break;
        after = next;
      }
      const walkMs = performance.now() - w0;
      const first = await measure(() => c.page(null));
      const deep = pages === DEEP ? await measure(() => c.page(after)) : null;
      const one = await measure(() => c.page(null), 1, SAMPLES_ONE);
      let raw: Line['raw'] = null;
      if (c.name.startsWith('GET ')) {
        const captured = await statements(store, () => c.page(null));
        raw = { stats: await measure(rawRun(store, captured), 1, SAMPLES_ONE), statements: captured.length };
      }
      lines.push({ store: name, name: c.name, first, deep, pages, one, raw });
      const f = (x: number) => x.toFixed(2);
      console.log(
        `${name} ${c.name}: first p50 ${f(first.p50)} p99 ${f(first.p99)} (${first.rps.toFixed(0)}/s)` +
          (deep === null ? ` — only ${pages} pages` : `; page ${DEEP} p50 ${f(deep.p50)} p99 ${f(deep.p99)} (${deep.rps.toFixed(0)}/s); walk ${(walkMs / pages).toFixed(2)} ms/page sequential`) +
          `; 1 caller p50 ${f(one.p50)} p99 ${f(one.p99)}` +
          (raw === null ? '' : `, its ${raw.statements} statement${raw.statements === 1 ? '' : 's'} raw p50 ${f(raw.stats.p50)} (API ÷ raw ${f(one.p50 / raw.stats.p50)})`),
      );
      if (c.name.startsWith('ds ') || c.name.includes('advanced-filters')) {
        for (const p of await plans(store, () => c.page(deep === null ? null : after))) console.log(`    plan: ${p}`);
      }
    }
    await csvExport(store, name);
    await tokenBalancesCpu(explorer.handle, name);
    // queueing: the same deep page alone (1 caller) vs 16 callers
    const probe = cases(store, explorer.handle).find((c) => c.name === 'ds listTokenTransfers token={hot}');
    if (probe !== undefined) {
      const one = await measure(() => probe.page(null), 1, 300);
      console.log(`${name} queueing probe (ds token transfers, first page): 1 caller p50 ${one.p50.toFixed(2)} p99 ${one.p99.toFixed(2)} ms (${one.rps.toFixed(0)}/s)`);
    }
    return { lines, load };
  } finally {
    await drop();
  }
}

// ---- CPU per request of one large answer (issue 13) ----------------------------------------------

const CPU_SAMPLES = env('BENCH_CPU_SAMPLES', 100);

/**
 * ms of this process's CPU (user + system, process.cpuUsage() deltas) per call and the wall p50,
 * over `n` sequential calls after a warm-up: one caller, so the CPU is the request's own (a
 * Postgres server's CPU is its own process, not counted).
 */
async function cpuPerRequest(fn: () => Promise<unknown>, n = CPU_SAMPLES): Promise<{ readonly cpu: number; readonly p50: number }> {
  for (let i = 0; i < Math.min(20, n); i++) await fn(); // warm
  const times: number[] = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  const used = process.cpuUsage(c0);
  times.sort((a, b) => a - b);
  return { cpu: (used.user + used.system) / 1000 / n, p50: percentile(times, 50) };
}

/** The unpaged token balances of the hot address (≈ 1,000 tokens), JSON text included: target ≤ 5 ms CPU. */
async function tokenBalancesCpu(handle: Handle, name: string): Promise<void> {
  const c = apiCase('address token-balances (unpaged)', `/addresses/${HOT[0]}/token-balances`, {}, handle);
  const { size } = await c.page(null);
  const r = await cpuPerRequest(() => c.page(null));
  console.log(`${name} ${c.name} (${size} balances), 1 caller × ${CPU_SAMPLES}: ${r.cpu.toFixed(2)} ms CPU/request (target ≤ 5), wall p50 ${r.p50.toFixed(2)} ms`);
}

// ---- a large CSV export: streamed with flat memory ------------------------------------------------

const CSV_ROWS = env('BENCH_CSV_ROWS', 100_000);
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);

/**
 * The token transfers of the busiest token (20 % of all transfers: 200,000 at scale 1), exported
 * as CSV with the row bound at BENCH_CSV_ROWS (default 100,000), read as a fast client would:
 * RSS before, its peak while streaming, and after. Flat memory = the peak stays near the start
 * however many rows pass (a page of 100 at a time), far below the export's size.
 */
async function csvExport(store: SqlStore, name: string): Promise<void> {
  const explorer = createExplorer({ chains: { '1': store }, cache: { maxEntries: 0 }, csvExport: { limit: CSV_ROWS } });
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage.rss();
  const t0 = performance.now();
  const r = await explorer.handle({ path: `/api/v2/addresses/${HOT_TOKENS[0]}/token-transfers/csv`, query: { from_period: 'null', to_period: 'null' } });
  if (r.stream === undefined) throw new Error(`csv export: ${r.status} ${toJson(r.body)}`);
  let bytes = 0;
  let records = 0;
  let peak = before;
  let chunks = 0;
  for await (const chunk of r.stream) {
    bytes += Buffer.byteLength(chunk);
    for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) records += 1;
    if (++chunks % 20 === 0) peak = Math.max(peak, process.memoryUsage.rss());
  }
  const seconds = (performance.now() - t0) / 1000;
  const after = process.memoryUsage.rss();
  peak = Math.max(peak, after);
  console.log(
    `${name} csv export (token transfers of the busiest token, bound ${CSV_ROWS}): ${records - 1} rows, ${mib(bytes)} MiB in ${seconds.toFixed(1)} s ` +
      `(${((records - 1) / seconds).toFixed(0)} rows/s, ${chunks} chunks); RSS before ${mib(before)} MiB, peak ${mib(peak)} MiB, after ${mib(after)} MiB ` +
      `(growth ${mib(peak - before)} MiB for a ${mib(bytes)} MiB file)`,
  );
}

const all: Line[] = [];
const loads = new Map<string, LoadFigures>();
for (const name of STORES) {
  const { lines, load } = await bench(name);
  all.push(...lines);
  loads.set(name, load);
}
const f = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(2));
console.log(`\nBENCH_SCALE=${SCALE}: ${TXS} transactions, ${TXS} token transfers, ${ADDRESSES} addresses; ${CONCURRENCY} concurrent callers, ${SAMPLES} samples, page size ${LIMIT}`);
console.log(`targets: p99 ≤ 10 ms; page ${DEEP} p50 ≤ 1.3 × page 1 p50`);
console.log(`| store | endpoint | p50 page 1 | p99 page 1 | p50 page ${DEEP} | p99 page ${DEEP} | ratio p50 | p99 ≤ 10 ms | ratio ≤ 1.3 |`);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const l of all) {
  const ratio = l.deep === null ? undefined : l.deep.p50 / l.first.p50;
  const p99 = Math.max(l.first.p99, l.deep?.p99 ?? 0);
  console.log(
    `| ${l.store} | ${l.name} | ${f(l.first.p50)} | ${f(l.first.p99)} | ${f(l.deep?.p50)} | ${f(l.deep?.p99)} | ${f(ratio)}${l.deep === null ? ` (${l.pages} pages)` : ''} | ${p99 <= 10 ? 'yes' : 'NO'} | ${ratio === undefined ? '—' : ratio <= 1.3 ? 'yes' : 'NO'} |`,
  );
}
// issue 13: a cold API page at one caller next to the raw SQL it runs (same driver, same statements in order)
console.log(`\ncold API pages (response cache off) at one caller, ${SAMPLES_ONE} samples, against their statements run raw; targets: p50 ≤ 1 ms, p99 ≤ 3 ms at 1 caller, p99 ≤ 15 ms at ${CONCURRENCY} callers`);
const cold = all.flatMap((l) =>
  l.raw === null ? [] : [{ store: l.store, name: l.name, p50: l.one.p50, p99: l.one.p99, raw: l.raw.stats.p50, statements: l.raw.statements, p99Busy: l.first.p99 }],
);
for (const line of coldTable(cold, CONCURRENCY)) console.log(line);

// issue 9: the aggregate and search pages at one caller within 2 × a plain list page (/blocks)
const VERSUS_BLOCKS = ['GET /stats', 'GET /tokens/', 'GET /tokens/{hot token}/holders', 'GET /tokens/?q=T12', 'GET /search?q=T12'];
console.log("\nfirst-page p50 at one caller against GET /blocks?type=block's (target ≤ 2 ×)");
console.log('| store | endpoint | p50 page 1 | /blocks p50 | ratio | ≤ 2 × |');
console.log('|---|---|---|---|---|---|');
for (const store of STORES) {
  const blocks = all.find((l) => l.store === store && l.name === 'GET /blocks?type=block');
  for (const name of VERSUS_BLOCKS) {
    const l = all.find((x) => x.store === store && x.name === name);
    if (l === undefined || blocks === undefined) continue;
    const ratio = l.one.p50 / blocks.one.p50;
    console.log(`| ${store} | ${name} | ${f(l.one.p50)} | ${f(blocks.one.p50)} | ${f(ratio)} | ${ratio <= 2 ? 'yes' : 'NO'} |`);
  }
}

// issue 31: reads through a streaming replica beside reads of the primary (bench/replica.ts: a
// Postgres server and a hot standby of its own; BENCH_REPLICA=0 leaves it out)
if (STORES.includes('postgres') && process.env.BENCH_REPLICA !== '0') {
  console.log('');
  await import('./replica.ts');
}

// issue 41: each figure against the last RESULTS entry of the same store, scale and data set
// (bench/guard/), the block a new entry carries for the next run, and RESULTS' plot drawn again
const figures: StoreFigures[] = STORES.map((store) => ({
  store,
  scale: SCALE,
  contractRecords: CONTRACT_RECORDS,
  bulk: BULK,
  callers: CONCURRENCY,
  load: loads.get(store) ?? null,
  lists: Object.fromEntries(cold.filter((c) => c.store === store).map((c): [string, ListFigures] => [c.name, { p50: c.p50, p99: c.p99, raw: c.raw, p99Busy: c.p99Busy }])),
}));
console.log('\nguard: each figure against the last RESULTS entry of the same store, scale and data set (worse: a time up or a rate down by more than 15 %)');
for (const line of guard(figures)) console.log(line);
console.log('\nfor a RESULTS entry (the next run compares with its json block):\n');
for (const line of entryDraft(figures)) console.log(line);
console.log(`\nplot of RESULTS' cold pages: ${PLOT_PATH} ${drawColdPages() ? 'drawn again' : 'unchanged'}`);
