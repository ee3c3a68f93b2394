/**
 * npm run bench:userops — the user-operation backfill (issue 43) on a store indexed before user
 * operations were derived (migration 026): how long it takes to find the blocks that hold
 * EntryPoint bundles among a million transactions' logs, read them again and write their
 * operations.
 *
 * The data set: BENCH_SCALE × 100,000 blocks of 10 transactions (1M at the default scale 1), each
 * transaction an ERC-20 transfer with its Transfer log; every BENCH_BUNDLE_EVERY-th block (default
 * 100) has, as its first transaction, an EntryPoint v0.7 `handleOps` bundle of two operations
 * (BeforeExecution, then each operation's Transfer and UserOperationEvent): 1,000 bundles and
 * 2,000 operations among 1,003,000 logs. It is bulk-loaded (beginBulk, settle) without the
 * operations, as a store written before the change holds it, into each store of BENCH_STORES
 * (default sqlite,postgres; SQLite in a temp file, Postgres in a fresh schema, both dropped after).
 *
 * Then, on each store:
 * - the seek alone — DataSink.blocksWithLogs(the EntryPoints, BeforeExecution), what the backfill
 *   asks the store first — median of 5;
 * - the whole backfill (lib's backfillUserOperations, 8 blocks at a time as the indexer runs it),
 *   against an in-process node that serves those blocks and their receipts, BENCH_NODE_MS
 *   (default 0) of latency per read: 0 measures the store's side and the decoding alone;
 * - a second backfill: each block's operations replaced, none added;
 * - the check: every operation stored exactly once (DataSource.listUserOperations, walked).
 *
 *   BENCH_SCALE=0.01 npm run bench:userops      # a quick look
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, parseAbiParameters } from 'viem';
import type { Address, BlockBundle, Hash, Hex, LogRecord, TransactionRecord } from '../lib/domain/records.ts';
import type { ChainCapabilities, ChainSource, SourceBlock, SourceLog, SourceReceipt, SourceTransaction } from '../lib/chain-source.ts';
import { EMPTY_HEX, hex } from '../lib/domain/hex.ts';
import { backfillUserOperations } from '../lib/indexer/userOpsBackfill.ts';
import { DEFAULT_ENTRY_POINTS, ENTRY_POINT_EVENTS_ABI, ENTRY_POINT_V07, ENTRY_POINT_V07_ABI, TOPICS } from '../lib/userops/index.ts';
import { openSqlStore } from '../adapters/sql/index.ts';
import type { SqlStore } from '../adapters/sql/index.ts';

const env = (k: string, d: number): number => {
  const v = process.env[k];
  return v === undefined || v === '' ? d : Number(v);
};
const SCALE = env('BENCH_SCALE', 1);
const BLOCKS = Math.max(100, Math.round(100_000 * SCALE));
const PER_BLOCK = 10;
const BUNDLE_EVERY = env('BENCH_BUNDLE_EVERY', 100);
const NODE_MS = env('BENCH_NODE_MS', 0);
const BATCH = 100;
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const digits = (n: number | bigint, width: number): string => n.toString(16).padStart(width, '0');
const addr = (i: number): Address => `0x${digits(i + 1, 40)}` as Address;
const hash = (tag: number, i: number): Hash => `0x${digits(tag, 8)}${digits(i, 56)}` as Hash;
const word = (a: Address): Hex => `0x${a.slice(2).padStart(64, '0')}` as Hex;
const TOKEN = addr(0x7070);
const BUNDLER = addr(0xb0b);
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef' as Hex;
const amount = (i: number): Hex => `0x${digits(BigInt(i + 1) * 10n ** 15n, 64)}` as Hex;
const packed = (hi: bigint, lo: bigint): Hex => `0x${digits(hi, 32)}${digits(lo, 32)}` as Hex;
const isBundleBlock = (n: number): boolean => n % BUNDLE_EVERY === BUNDLE_EVERY - 1;

/** a bundle block's two operations: senders, nonces, their hashes */
function operations(n: number) {
  return [0, 1].map((k) => ({ sender: addr(0x5e00 + ((n * 2 + k) % 500)), nonce: BigInt(n * 2 + k), hash: hash(0x0f, n * 2 + k) }));
}

/** one block as the node serves it: transactions and receipts (the bundle first where there is one) */
function sourceBlock(n: number): { block: SourceBlock; receipts: SourceReceipt[] } {
  const blockHash = hash(0xb10c, n);
  const transactions: SourceTransaction[] = [];
  const receipts: SourceReceipt[] = [];
  let logIndex = 0;
  for (let i = 0; i < PER_BLOCK; i++) {
    const txHash = hash(0x7a, n * PER_BLOCK + i);
    const from = addr(8 + ((n * PER_BLOCK + i) % 90_000));
    const log = (address: Address, topics: readonly Hex[], data: Hex): SourceLog => ({ address, topics, data, logIndex: logIndex++, transactionHash: txHash, transactionIndex: i });
    const base = { hash: txHash, blockNumber: n, blockHash, index: i, value: 0n, gas: 1_000_000n, gasPrice: 2n * 10n ** 9n, maxFeePerGas: null, maxPriorityFeePerGas: null, nonce: n, type: 0 };
    if (i === 0 && isBundleBlock(n)) {
      const ops = operations(n);
      const input = hex(encodeFunctionData({
        abi: ENTRY_POINT_V07_ABI,
        functionName: 'handleOps',
        args: [
          ops.map((o) => ({
            sender: o.sender, nonce: o.nonce, initCode: '0x' as Hex, callData: '0xb61d27f6' as Hex, accountGasLimits: packed(100_000n, 50_000n),
            preVerificationGas: 21_000n, gasFees: packed(2n, 30n), paymasterAndData: '0x' as Hex, signature: '0x1234' as Hex,
          })),
          BUNDLER,
        ],
      }));
      transactions.push({ ...base, from: BUNDLER, to: ENTRY_POINT_V07, input });
      const logs = [log(ENTRY_POINT_V07, [TOPICS.beforeExecution], EMPTY_HEX)];
      for (const o of ops) {
        logs.push(log(TOKEN, [TRANSFER_TOPIC, word(o.sender), word(from)], amount(i)));
        const eventTopics = encodeEventTopics({ abi: ENTRY_POINT_EVENTS_ABI, eventName: 'UserOperationEvent', args: { userOpHash: o.hash, sender: o.sender, paymaster: addr(-1) } }) as `0x${string}`[];
        const topics = eventTopics.map((t) => hex(t));
        logs.push(log(ENTRY_POINT_V07, topics, hex(encodeAbiParameters(parseAbiParameters('uint256, bool, uint256, uint256'), [o.nonce, true, 60_000n, 30_000n]))));
      }
      receipts.push({ transactionHash: txHash, transactionIndex: i, status: 'success', gasUsed: 300_000n, effectiveGasPrice: 2n * 10n ** 9n, contractAddress: null, logs });
      continue;
    }
    const to = addr(8 + ((n * 7 + i * 13) % 90_000));
    transactions.push({ ...base, from, to: TOKEN, input: `0xa9059cbb${'0'.repeat(128)}` as Hex });
    const logs = [log(TOKEN, [TRANSFER_TOPIC, word(from), word(to)], amount(i))];
    receipts.push({ transactionHash: txHash, transactionIndex: i, status: 'success', gasUsed: 50_000n, effectiveGasPrice: 2n * 10n ** 9n, contractAddress: null, logs });
  }
  const block = {
    number: n, hash: blockHash, parentHash: n === 0 ? hash(0, 0) : hash(0xb10c, n - 1), timestamp: 1_700_000_000 + n * 12, miner: addr(5), size: 1000,
    gasLimit: 30_000_000n, gasUsed: 1n, baseFeePerGas: 10n ** 9n, difficulty: 0n, totalDifficulty: 0n, nonce: hex('0x0000000000000000'), extraData: EMPTY_HEX,
    stateRoot: hash(0x5a, n), uncles: [], transactions,
  } as SourceBlock;
  return { block, receipts };
}

/** the same block as a store written before user operations holds it: no operations */
function storedBundle(n: number): BlockBundle {
  const { block, receipts } = sourceBlock(n);
  const timestamp = block.timestamp;
  const transactions: TransactionRecord[] = block.transactions.map((t, i) => ({
    hash: t.hash, blockNumber: n, blockHash: block.hash, index: i, timestamp, baseFeePerGas: 10n ** 9n, from: t.from, to: t.to, createdContract: null,
    value: 0n, gas: t.gas, gasPrice: t.gasPrice ?? 0n, maxFeePerGas: null, maxPriorityFeePerGas: null, gasUsed: receipts[i]?.gasUsed ?? 0n,
    status: 'ok', error: null, revertReason: null, nonce: t.nonce, type: 0, input: t.input, methodId: t.input.slice(0, 10) as Hex,
    insertedAt: timestamp * 1000, kinds: ['contract_call'], hasErrorInInternalTransactions: false,
  }));
  const logs: LogRecord[] = receipts.flatMap((r) =>
    r.logs.map((l) => ({ transactionHash: l.transactionHash, blockHash: block.hash, blockNumber: n, transactionIndex: l.transactionIndex, index: l.logIndex, timestamp, address: l.address, topics: l.topics, data: l.data })),
  );
  return {
    block: {
      number: n, hash: block.hash, parentHash: block.parentHash, timestamp, miner: block.miner, size: 1000, gasLimit: block.gasLimit, gasUsed: block.gasUsed,
      baseFeePerGas: 10n ** 9n, difficulty: 0n, totalDifficulty: 0n, nonce: hex('0x0000000000000000'), extraData: EMPTY_HEX, stateRoot: null, consensus: true,
      unclesHashes: [], transactionsCount: transactions.length, internalTransactionsCount: 0, transactionFees: 0n, burntFees: 0n, priorityFee: 0n,
    },
    transactions, internalTransactions: [], logs, tokenTransfers: [], tokens: [], tokenBalances: [], coinBalances: [], tokenInstances: [], addresses: [], stateChanges: [],
  };
}

/** a node that serves the data set's blocks (NODE_MS a read); the backfill reads nothing else */
function benchNode(): ChainSource {
  const unused = (what: string) => (): never => {
    throw new Error(`the backfill does not read ${what}`);
  };
  const node = {
    chainId: async () => 1,
    blockHash: async (n: number) => (n < BLOCKS ? hash(0xb10c, n) : null),
    headNumber: async () => BLOCKS - 1,
    capabilities: async (): Promise<ChainCapabilities> => ({ traces: false, prestate: false, blockReceipts: true }),
    getBlock: async (n: number) => {
      if (NODE_MS > 0) await sleep(NODE_MS);
      return n < BLOCKS ? sourceBlock(n).block : null;
    },
    getReceipts: async (b: SourceBlock) => {
      if (NODE_MS > 0) await sleep(NODE_MS);
      return sourceBlock(b.number).receipts;
    },
    traceCalls: unused('call frames'),
    tracePrestate: unused('state diffs'),
    readTokens: unused('tokens'),
    getCode: unused('code'),
    getBalance: unused('balances'),
    fetchMetadata: unused('metadata'),
  };
  return node as ChainSource;
}

async function load(store: SqlStore, name: string): Promise<void> {
  const t0 = performance.now();
  await store.beginBulk();
  for (let n = 0; n < BLOCKS; n += BATCH) {
    const batch: BlockBundle[] = [];
    for (let k = n; k < Math.min(BLOCKS, n + BATCH); k++) batch.push(storedBundle(k));
    await store.writeBlocks(batch);
    if ((n / BATCH) % 50 === 0) process.stderr.write(`\r${name}: block ${n}/${BLOCKS}   `);
  }
  await store.settle();
  process.stderr.write('\n');
  const s = (performance.now() - t0) / 1000;
  console.log(`${name}: loaded ${BLOCKS} blocks, ${BLOCKS * PER_BLOCK} transactions, ${BLOCKS * PER_BLOCK + Math.floor(BLOCKS / BUNDLE_EVERY) * 4} logs in ${s.toFixed(1)} s (${Math.round((BLOCKS * PER_BLOCK) / s)} tx/s, settle included)`);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** every stored operation, walked page by page: how many, and how many distinct */
async function storedOperations(store: SqlStore): Promise<{ rows: number; distinct: number }> {
  const seen = new Set<string>();
  let rows = 0;
  let after: { blockNumber: number; hash: Hash } | null = null;
  for (;;) {
    const page: readonly { readonly blockNumber: number; readonly hash: Hash }[] = (await store.listUserOperations?.({}, { after, limit: 500, order: 'desc' })) ?? [];
    rows += page.length;
    for (const o of page) seen.add(o.hash);
    const last = page[page.length - 1];
    if (page.length < 500 || last === undefined) return { rows, distinct: seen.size };
    after = { blockNumber: last.blockNumber, hash: last.hash };
  }
}

async function measure(store: SqlStore, name: string): Promise<void> {
  const bundles = Math.floor(BLOCKS / BUNDLE_EVERY);
  const seek = store.blocksWithLogs?.bind(store);
  if (seek === undefined) throw new Error(`${name}: the store cannot find blocks by their logs`);
  const seeks: number[] = [];
  let found = 0;
  for (let r = 0; r < 5; r++) {
    const s0 = performance.now();
    found = (await seek([...DEFAULT_ENTRY_POINTS.keys()], TOPICS.beforeExecution)).length;
    seeks.push(performance.now() - s0);
  }
  console.log(`${name}: the seek (blocksWithLogs, the EntryPoints' BeforeExecution): ${found} of ${BLOCKS} blocks in ${median(seeks).toFixed(1)} ms (median of 5)`);
  const caps = await benchNode().capabilities();
  for (const round of ['first', 'again']) {
    const b0 = performance.now();
    const summary = await backfillUserOperations({ source: benchNode(), sink: store, caps, entryPoints: DEFAULT_ENTRY_POINTS });
    const s = (performance.now() - b0) / 1000;
    console.log(
      `${name}: backfill (${round}): ${summary.blocks} blocks read again, ${summary.operations} operations written, ${summary.skipped} skipped, in ${s.toFixed(2)} s ` +
        `(${Math.round(summary.blocks / s)} blocks/s; node ${NODE_MS} ms a read)`,
    );
  }
  const stored = await storedOperations(store);
  const ok = stored.rows === bundles * 2 && stored.distinct === stored.rows;
  console.log(`${name}: stored ${stored.rows} operations, ${stored.distinct} distinct, of ${bundles * 2} expected: ${ok ? 'every one once' : 'WRONG'}`);
  if (!ok) process.exitCode = 1;
}

async function openStore(name: string): Promise<{ store: SqlStore; drop: () => Promise<void> }> {
  if (name === 'sqlite') {
    const file = join(tmpdir(), `scoutkit-bench-userops-${process.pid}.sqlite`);
    const store = await openSqlStore(`sqlite:${file}`);
    await store.knex.raw('PRAGMA synchronous = OFF'); // the benchmark's load only
    return { store, drop: async () => { await store.close(); for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true }); } };
  }
  const schema = `scoutkit_bench_userops_${process.pid}`;
  const store = await openSqlStore(DATABASE_URL, { searchPath: schema });
  return { store, drop: async () => { try { await store.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]); } finally { await store.close(); } } };
}

console.log(`bench:userops — ${BLOCKS} blocks, ${BLOCKS * PER_BLOCK} transactions, a v0.7 bundle of two operations every ${BUNDLE_EVERY} blocks; stores ${STORES.join(', ')}`);
for (const name of STORES) {
  const { store, drop } = await openStore(name);
  try {
    await load(store, name);
    await measure(store, name);
  } finally {
    await drop();
  }
}
