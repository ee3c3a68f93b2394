/**
 * scoutkit/rpc — the ChainSource over EVM JSON-RPC, on viem: one public client with an http
 * transport that batches concurrent requests into JSON-RPC batches, timeouts, and retries with
 * exponential backoff on transient failures (errors.ts says which are).
 *
 *   const source = createRpcChainSource('http://127.0.0.1:8545');
 */
import { createPublicClient, decodeFunctionResult, encodeFunctionData, hexToString, http, parseAbi } from 'viem';
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import type {
  ChainCapabilities,
  ChainSource,
  TraceMode,
  PendingPoolMethod,
  PendingPoolRead,
  SourceBlock,
  SourceReceipt,
  TokenRead,
  TokenReadResult,
} from '../../lib/chain-source.ts';
import { classify, DEFAULT_RETRY, FinalRpcError, NO_HISTORICAL_STATE, NotYetRpcError, withRetry } from './errors.ts';
import type { RetryListener, RetryPolicy } from './errors.ts';
import { createRetryReporter } from './report.ts';
import type { RetryReporter } from './report.ts';
import { chooseRung, isUnsupported, serves } from './ladder.ts';
import { createRung } from './rungs.ts';
import type { Rung, RungContext } from './rungs.ts';
import { createPendingPoolReader } from './pending.ts';
import { createMetadataFetcher } from './metadata.ts';
import type { MetadataOptions } from './metadata.ts';
import { arr, hash, hex, num, obj, parseBlock, parseReceipt } from './parse.ts';
import { EMPTY_HEX } from '../../lib/domain/hex.ts';

export { RetryableRpcError, NotYetRpcError, FinalRpcError, FatalRpcError, classify, failureKind, nodeError, withRetry } from './errors.ts';
export type { NodeError, RetryListener, RetryPolicy, RpcFailure } from './errors.ts';
export { createMetadataFetcher, resolveUri } from './metadata.ts';
export { createRpcNode } from './node.ts';
export type { RpcNodeOptions } from './node.ts';
export type { MetadataOptions } from './metadata.ts';

export interface RpcChainSourceOptions {
  /** per request (default 30,000 ms: block traces can be slow) */
  readonly timeoutMs?: number;
  /** JSON-RPC batch size (default 100) */
  readonly batchSize?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** NFT metadata fetching (ipfs gateway, timeout, size cap) */
  readonly metadata?: MetadataOptions;
  /** skip the probe and use these capabilities */
  readonly capabilities?: Partial<ChainCapabilities>;
  /** warnings (e.g. falling back to latest state for reads) and retries (at most one line per kind every 10 s) */
  readonly log?: (line: string) => void;
  /** told of every retry of a node read (for metrics: `failureKind(err)` names its class); logging is `log`'s */
  readonly onRetry?: RetryListener;
  /** the `timeout` a trace asked again per transaction is given, where the node takes one (default '25s') */
  readonly longTraceTimeout?: string;
  /** the rung of the tracing ladder to use (default: the best the node serves, probed at start) */
  readonly traceMode?: TraceMode;
  /** per-transaction traces of one block asked at once on the transaction rung (default 8) */
  readonly traceConcurrency?: number;
  /** the largest opcode trace the struct-log rung reads (default 64 MiB): a larger one leaves its block without frames */
  readonly maxStructLogBytes?: number;
}

export interface RpcChainSource extends ChainSource {
  /** requests sent (each JSON-RPC call counts once, batched or not) */
  requestCount(): number;
  /** retries so far, by kind (timeout, rate-limit, http-5xx, network, not-yet) */
  retryCounts(): Readonly<Record<string, number>>;
  pendingPoolMethod(): Promise<PendingPoolMethod>;
  readPendingPool(limit: number, known?: readonly Hash[]): Promise<PendingPoolRead>;
}

type RawRequest = (args: { method: string; params?: readonly unknown[] }) => Promise<unknown>;

const TOKEN_ABI = parseAbi([
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function balanceOf(address account, uint256 id) view returns (uint256)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function uri(uint256 id) view returns (string)',
  'function balanceOfBatch(address[] accounts, uint256[] ids) view returns (uint256[])',
]);
const BYTES32_ABI = parseAbi(['function name() view returns (bytes32)']);

/** a JSON-RPC quantity (a number, not bytes) */
const toHex = (n: number): `0x${string}` => `0x${n.toString(16)}`;

function encodeRead(r: TokenRead): `0x${string}` {
  switch (r.kind) {
    case 'supportsInterface':
      return encodeFunctionData({ abi: TOKEN_ABI, functionName: 'supportsInterface', args: [r.interfaceId] });
    case 'name':
    case 'symbol':
    case 'decimals':
    case 'totalSupply':
      return encodeFunctionData({ abi: TOKEN_ABI, functionName: r.kind });
    case 'balanceOf':
      return encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [r.holder] });
    case 'balanceOf1155':
      return encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [r.holder, r.id] });
    case 'ownerOf':
    case 'tokenURI':
    case 'uri':
      return encodeFunctionData({ abi: TOKEN_ABI, functionName: r.kind, args: [r.id] });
  }
}

/** Strings some old tokens return as bytes32. */
function bytes32String(data: Hex): string | null {
  try {
    const raw = decodeFunctionResult({ abi: BYTES32_ABI, functionName: 'name', data });
    const s = hexToString(raw).replace(/\0+$/, '');
    return s === '' ? null : s;
  } catch {
    return null;
  }
}

function decodeRead(r: TokenRead, data: Hex): TokenReadResult {
  if (data === EMPTY_HEX) return null;
  try {
    switch (r.kind) {
      case 'supportsInterface':
        // ERC-165 says: exactly 32 bytes, true or false
        return data.length === 66 ? decodeFunctionResult({ abi: TOKEN_ABI, functionName: 'supportsInterface', data }) : null;
      case 'name':
      case 'symbol':
        try {
          return decodeFunctionResult({ abi: TOKEN_ABI, functionName: r.kind, data });
        } catch {
          return bytes32String(data);
        }
      case 'decimals':
      case 'totalSupply':
        return decodeFunctionResult({ abi: TOKEN_ABI, functionName: r.kind, data });
      case 'balanceOf':
        return decodeFunctionResult({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [r.holder], data });
      case 'balanceOf1155':
        return decodeFunctionResult({ abi: TOKEN_ABI, functionName: 'balanceOf', args: [r.holder, r.id], data });
      case 'ownerOf':
        return decodeFunctionResult({ abi: TOKEN_ABI, functionName: 'ownerOf', data }).toLowerCase();
      case 'tokenURI':
      case 'uri':
        return decodeFunctionResult({ abi: TOKEN_ABI, functionName: r.kind, data });
    }
  } catch {
    return null;
  }
}

/** "header not found" for a block this far below the head: the node has pruned it, not "a moment behind" */
const PRUNED_DISTANCE = 64;

/** A source's connection and state, passed to each of its reads. */
interface RpcState {
  readonly raw: RawRequest;
  readonly policy: RetryPolicy;
  readonly log: (line: string) => void;
  readonly reporter: RetryReporter;
  readonly onRetry: RetryListener;
  readonly options: RpcChainSourceOptions;
  /** requests sent */
  requests: number;
  /** the capabilities' probe, while it holds (a probe that failed is forgotten) */
  caps: Promise<ChainCapabilities> | undefined;
  /** the rung chosen at the probe */
  tracer: Rung | undefined;
  /** set once the node is found to keep no historical state: token reads then use the latest */
  readsAtLatest: boolean;
  /** what the rungs are given (set once, when the state is made) */
  rungContext: RungContext | undefined;
}

function createRpcState(url: string, options: RpcChainSourceOptions): RpcState {
  const client = createPublicClient({
    transport: http(url, {
      batch: { batchSize: options.batchSize ?? 100, wait: 0 },
      timeout: options.timeoutMs ?? 30_000,
      retryCount: 0, // retries are ours (withRetry), classified
    }),
  });
  const log = options.log ?? (() => {});
  const reporter = createRetryReporter(log);
  const told = options.onRetry;
  const onRetry: RetryListener =
    told === undefined
      ? reporter.onRetry
      : (what, err, attempt, delayMs) => {
          reporter.onRetry(what, err, attempt, delayMs);
          told(what, err, attempt, delayMs);
        };
  const s: RpcState = {
    raw: client.request as unknown as RawRequest,
    policy: { ...DEFAULT_RETRY, ...options.retry },
    log,
    reporter,
    onRetry,
    options,
    requests: 0,
    caps: undefined,
    tracer: undefined,
    readsAtLatest: false,
    rungContext: undefined,
  };
  s.rungContext = {
    call: (method, params) => call(s, method, params),
    url,
    log,
    longTimeout: options.longTraceTimeout ?? '25s',
    retried: <T>(what: string, f: () => Promise<T>): Promise<T> => withRetry(what, f, s.policy, onRetry),
    receipts: (block: SourceBlock) => getReceipts(s, block),
    concurrency: options.traceConcurrency ?? 8,
    maxStructLogBytes: options.maxStructLogBytes ?? 64 * 1024 * 1024,
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  return s;
}

function send(s: RpcState, method: string, params: readonly unknown[]): Promise<unknown> {
  s.requests++;
  return s.raw({ method, params });
}

function call(s: RpcState, method: string, params: readonly unknown[]): Promise<unknown> {
  return withRetry(method, () => send(s, method, params), s.policy, s.onRetry);
}

/** a call whose null answer means "not there yet" on this backend: asked again, then thrown as NotYetRpcError */
function callPresent(s: RpcState, method: string, params: readonly unknown[]): Promise<unknown> {
  return withRetry(
    method,
    async () => {
      const v = await send(s, method, params);
      if (v === null || v === undefined) throw new NotYetRpcError(`${method}(${params.map((p) => JSON.stringify(p)).join(', ')}) answered null: not there yet`, null);
      return v;
    },
    s.policy,
    s.onRetry,
  );
}

async function headNumber(s: RpcState): Promise<number> {
  return num(await call(s, 'eth_blockNumber', []), 'eth_blockNumber');
}

function capabilities(s: RpcState): Promise<ChainCapabilities> {
  const caps = (s.caps ??= probeCapabilities(s));
  // a probe that failed is asked again next time, never remembered
  caps.catch(() => {
    s.caps = undefined;
  });
  return caps;
}

async function probeCapabilities(s: RpcState): Promise<ChainCapabilities> {
  const { options } = s;
  const fixed = options.capabilities ?? {};
  const head = await headNumber(s);
  const forced: TraceMode | undefined = fixed.traces === false ? 'none' : (options.traceMode ?? fixed.traceMode);
  const caller = (method: string, params: readonly unknown[]): Promise<unknown> => call(s, method, params);
  const [rung, blockReceipts] = await Promise.all([chooseRung(caller, head, forced), fixed.blockReceipts ?? serves(caller, 'eth_getBlockReceipts', [toHex(head)])]);
  const prestate = rung.prestate && fixed.prestate !== false;
  s.tracer = createRung(rung.traceMode, s.rungContext as RungContext);
  return { traces: rung.traces, prestate, blockReceipts, traceMode: rung.traceMode };
}

/** the rung chosen at the capabilities' probe (asked for first when a trace comes before it) */
async function rungOf(s: RpcState): Promise<Rung> {
  await capabilities(s);
  if (s.tracer === undefined) throw new Error('no trace rung chosen');
  return s.tracer;
}

async function getReceipts(s: RpcState, block: SourceBlock): Promise<SourceReceipt[]> {
  return receiptsOf(s, block, (await capabilities(s)).blockReceipts);
}

async function receiptsOf(s: RpcState, block: SourceBlock, blockReceipts: boolean): Promise<SourceReceipt[]> {
  if (block.transactions.length === 0) return [];
  let list: SourceReceipt[];
  if (blockReceipts) {
    list = arr(await callPresent(s, 'eth_getBlockReceipts', [toHex(block.number)]), 'eth_getBlockReceipts').map(parseReceipt);
  } else {
    list = await Promise.all(block.transactions.map(async (tx) => parseReceipt(await callPresent(s, 'eth_getTransactionReceipt', [tx.hash]))));
  }
  const byHash = new Map(list.map((r) => [r.transactionHash, r]));
  return block.transactions.map((tx) => {
    const r = byHash.get(tx.hash);
    if (r === undefined) throw new NotYetRpcError(`block ${block.number}: no receipt for ${tx.hash} yet (a backend behind, or a reorg in progress)`, null);
    return r;
  });
}

/** the call's result; null only when the EVM answered with no value (a revert) */
async function ethCall(s: RpcState, to: Address, data: `0x${string}`, blockNumber: number): Promise<Hex | null> {
  const tag = s.readsAtLatest ? 'latest' : toHex(blockNumber);
  try {
    return hex(await call(s, 'eth_call', [{ to, data }, tag]), 'eth_call');
  } catch (e) {
    const err = classify(e);
    if (err instanceof FinalRpcError && err.execution) return null; // reverted: a real answer, no value
    if (!s.readsAtLatest && (NO_HISTORICAL_STATE.test(err.message) || (err instanceof NotYetRpcError && /header not found/i.test(err.message) && (await headNumber(s)) - blockNumber > PRUNED_DISTANCE))) {
      s.readsAtLatest = true;
      s.log(`warning: the node has no historical state (${err.message}): token reads now use the latest state (balances may run ahead of the indexed block)`);
      return ethCall(s, to, data, blockNumber);
    }
    throw err; // could not be read: never a value (the indexer holds the block and asks again)
  }
}

/** one token read; ERC-1155 balances: balanceOf(holder, id), else balanceOfBatch([holder], [id]) (both are required by the standard) */
async function readToken(s: RpcState, r: TokenRead, blockNumber: number): Promise<TokenReadResult> {
  const data = await ethCall(s, r.token, encodeRead(r), blockNumber);
  const v = data === null ? null : decodeRead(r, data);
  if (v !== null || r.kind !== 'balanceOf1155') return v;
  const out = await ethCall(s, r.token, encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOfBatch', args: [[r.holder], [r.id]] }), blockNumber);
  if (out === null || out === EMPTY_HEX) return null;
  try {
    return decodeFunctionResult({ abi: TOKEN_ABI, functionName: 'balanceOfBatch', data: out })[0] ?? null;
  } catch {
    return null;
  }
}

async function blockHash(s: RpcState, number: number): Promise<Hash | null> {
  const b = await call(s, 'eth_getBlockByNumber', [toHex(number), false]);
  if (b === null) return null;
  if (typeof b !== 'object') return null;
  return hash((b as { hash?: unknown }).hash, 'block.hash');
}

async function headerByHash(s: RpcState, blockHash: Hash): Promise<{ number: number; hash: Hash; parentHash: Hash } | null> {
  const b = await call(s, 'eth_getBlockByHash', [blockHash, false]);
  if (b === null || b === undefined) return null;
  const o = obj(b, 'eth_getBlockByHash');
  return { number: num(o.number, 'header.number'), hash: hash(o.hash, 'header.hash'), parentHash: hash(o.parentHash, 'header.parentHash') };
}

export function createRpcChainSource(url: string, options: RpcChainSourceOptions = {}): RpcChainSource {
  const s = createRpcState(url, options);
  const pool = createPendingPoolReader((method, params) => call(s, method, params), isUnsupported);
  return {
    requestCount: () => s.requests,
    retryCounts: () => s.reporter.counts(),
    chainId: async () => num(await call(s, 'eth_chainId', []), 'eth_chainId'),
    blockHash: (number: number) => blockHash(s, number),
    headerByHash: (hash: Hash) => headerByHash(s, hash),
    headNumber: () => headNumber(s),
    capabilities: () => capabilities(s),
    async getBlock(number: number) {
      const b = await call(s, 'eth_getBlockByNumber', [toHex(number), true]);
      return b === null ? null : parseBlock(b);
    },
    getReceipts: (block: SourceBlock) => getReceipts(s, block),
    traceCalls: async (block: SourceBlock) => (await rungOf(s)).traceCalls(block),
    tracePrestate: async (block: SourceBlock) => (await rungOf(s)).tracePrestate(block),
    readTokens: async (reads: readonly TokenRead[], blockNumber: number) => Promise.all(reads.map((r) => readToken(s, r, blockNumber))),
    async getCode(address: Address, blockNumber: number) {
      return hex(await call(s, 'eth_getCode', [address, toHex(blockNumber)]), 'eth_getCode');
    },
    async getBalance(address: Address, blockNumber: number) {
      const v = hex(await call(s, 'eth_getBalance', [address, toHex(blockNumber)]), 'eth_getBalance');
      return v === EMPTY_HEX ? 0n : BigInt(v);
    },
    async getStorageAt(address: Address, slot: Hash, blockNumber: number) {
      const v = hex(await call(s, 'eth_getStorageAt', [address, slot, toHex(blockNumber)]), 'eth_getStorageAt');
      return `0x${v.slice(2).padStart(64, '0')}` as Hash;
    },
    fetchMetadata: createMetadataFetcher(options.metadata),
    pendingPoolMethod: () => pool.method(),
    readPendingPool: (limit: number, known: readonly Hash[] = []) => pool.read(limit, known),
  };
}
