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
import { chooseRung, isUnsupported, serves } from './ladder.ts';
import { createRung } from './rungs.ts';
import type { Rung } from './rungs.ts';
import { createPendingPoolReader } from './pending.ts';
import { createMetadataFetcher } from './metadata.ts';
import type { MetadataOptions } from './metadata.ts';
import { arr, hex, num, obj, parseBlock, parseReceipt } from './parse.ts';

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

const toHex = (n: number): Hex => `0x${n.toString(16)}`;

function encodeRead(r: TokenRead): Hex {
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
  if (data === '0x') return null;
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

export function createRpcChainSource(url: string, options: RpcChainSourceOptions = {}): RpcChainSource {
  const client = createPublicClient({
    transport: http(url, {
      batch: { batchSize: options.batchSize ?? 100, wait: 0 },
      timeout: options.timeoutMs ?? 30_000,
      retryCount: 0, // retries are ours (withRetry), classified
    }),
  });
  const raw = client.request as unknown as RawRequest;
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
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
  let requests = 0;

  const send = (method: string, params: readonly unknown[]): Promise<unknown> => {
    requests++;
    return raw({ method, params });
  };
  const call = (method: string, params: readonly unknown[]): Promise<unknown> => withRetry(method, () => send(method, params), policy, onRetry);
  /** a call whose null answer means "not there yet" on this backend: asked again, then thrown as NotYetRpcError */
  const callPresent = (method: string, params: readonly unknown[]): Promise<unknown> =>
    withRetry(
      method,
      async () => {
        const v = await send(method, params);
        if (v === null || v === undefined) throw new NotYetRpcError(`${method}(${params.map((p) => JSON.stringify(p)).join(', ')}) answered null: not there yet`, null);
        return v;
      },
      policy,
      onRetry,
    );

  let caps: Promise<ChainCapabilities> | undefined;
  let tracer: Rung | undefined;
  const rungContext = {
    call,
    url,
    log,
    longTimeout: options.longTraceTimeout ?? '25s',
    retried: <T>(what: string, f: () => Promise<T>): Promise<T> => withRetry(what, f, policy, onRetry),
    receipts: (block: SourceBlock) => source.getReceipts(block),
    concurrency: options.traceConcurrency ?? 8,
    maxStructLogBytes: options.maxStructLogBytes ?? 64 * 1024 * 1024,
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  /** the rung chosen at the capabilities' probe (asked for first when a trace comes before it) */
  const rung = async (): Promise<Rung> => {
    await source.capabilities();
    if (tracer === undefined) throw new Error('no trace rung chosen');
    return tracer;
  };
  let readsAtLatest = false;
  const receiptsOf = async (block: SourceBlock, blockReceipts: boolean): Promise<SourceReceipt[]> => {
    if (block.transactions.length === 0) return [];
    let list: SourceReceipt[];
    if (blockReceipts) {
      list = arr(await callPresent('eth_getBlockReceipts', [toHex(block.number)]), 'eth_getBlockReceipts').map(parseReceipt);
    } else {
      list = await Promise.all(block.transactions.map(async (tx) => parseReceipt(await callPresent('eth_getTransactionReceipt', [tx.hash]))));
    }
    const byHash = new Map(list.map((r) => [r.transactionHash, r]));
    return block.transactions.map((tx) => {
      const r = byHash.get(tx.hash);
      if (r === undefined) throw new NotYetRpcError(`block ${block.number}: no receipt for ${tx.hash} yet (a backend behind, or a reorg in progress)`, null);
      return r;
    });
  };

  const pool = createPendingPoolReader(call, isUnsupported);

  const source: RpcChainSource = {
    requestCount: () => requests,
    retryCounts: () => reporter.counts(),

    async chainId() {
      return num(await call('eth_chainId', []), 'eth_chainId');
    },

    async blockHash(number: number): Promise<Hash | null> {
      const b = await call('eth_getBlockByNumber', [toHex(number), false]);
      if (b === null) return null;
      if (typeof b !== 'object') return null;
      return hex((b as { hash?: unknown }).hash, 'block.hash');
    },

    async headerByHash(hash: Hash) {
      const b = await call('eth_getBlockByHash', [hash, false]);
      if (b === null || b === undefined) return null;
      const o = obj(b, 'eth_getBlockByHash');
      return { number: num(o.number, 'header.number'), hash: hex(o.hash, 'header.hash'), parentHash: hex(o.parentHash, 'header.parentHash') };
    },

    async headNumber() {
      return num(await call('eth_blockNumber', []), 'eth_blockNumber');
    },

    capabilities() {
      caps ??= (async () => {
        const fixed = options.capabilities ?? {};
        const headNumber = await source.headNumber();
        const forced: TraceMode | undefined = fixed.traces === false ? 'none' : (options.traceMode ?? fixed.traceMode);
        const [rung, blockReceipts] = await Promise.all([chooseRung(call, headNumber, forced), fixed.blockReceipts ?? serves(call, 'eth_getBlockReceipts', [toHex(headNumber)])]);
        const prestate = rung.prestate && fixed.prestate !== false;
        tracer = createRung(rung.traceMode, rungContext);
        return { traces: rung.traces, prestate, blockReceipts, traceMode: rung.traceMode };
      })();
      // a probe that failed is asked again next time, never remembered
      caps.catch(() => {
        caps = undefined;
      });
      return caps;
    },

    async getBlock(number: number) {
      const b = await call('eth_getBlockByNumber', [toHex(number), true]);
      return b === null ? null : parseBlock(b);
    },

    async getReceipts(block: SourceBlock) {
      return receiptsOf(block, (await source.capabilities()).blockReceipts);
    },

    async traceCalls(block: SourceBlock) {
      return (await rung()).traceCalls(block);
    },

    async tracePrestate(block: SourceBlock) {
      return (await rung()).tracePrestate(block);
    },

    async readTokens(reads: readonly TokenRead[], blockNumber: number) {
      /** the call's result; null only when the EVM answered with no value (a revert) */
      const ethCall = async (to: Address, data: Hex): Promise<Hex | null> => {
        const tag = readsAtLatest ? 'latest' : toHex(blockNumber);
        try {
          return hex(await call('eth_call', [{ to, data }, tag]), 'eth_call');
        } catch (e) {
          const err = classify(e);
          if (err instanceof FinalRpcError && err.execution) return null; // reverted: a real answer, no value
          if (!readsAtLatest && (NO_HISTORICAL_STATE.test(err.message) || (err instanceof NotYetRpcError && /header not found/i.test(err.message) && (await source.headNumber()) - blockNumber > PRUNED_DISTANCE))) {
            readsAtLatest = true;
            log(`warning: the node has no historical state (${err.message}): token reads now use the latest state (balances may run ahead of the indexed block)`);
            return ethCall(to, data);
          }
          throw err; // could not be read: never a value (the indexer holds the block and asks again)
        }
      };
      const one = async (r: TokenRead): Promise<TokenReadResult> => {
        const data = await ethCall(r.token, encodeRead(r));
        return data === null ? null : decodeRead(r, data);
      };
      /** ERC-1155 balances: balanceOf(holder, id), else balanceOfBatch([holder], [id]) (both are required by the standard) */
      const read = async (r: TokenRead): Promise<TokenReadResult> => {
        const v = await one(r);
        if (v !== null || r.kind !== 'balanceOf1155') return v;
        const out = await ethCall(r.token, encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOfBatch', args: [[r.holder], [r.id]] }));
        if (out === null || out === '0x') return null;
        try {
          return decodeFunctionResult({ abi: TOKEN_ABI, functionName: 'balanceOfBatch', data: out })[0] ?? null;
        } catch {
          return null;
        }
      };
      return Promise.all(reads.map(read));
    },

    async getCode(address: Address, blockNumber: number) {
      return hex(await call('eth_getCode', [address, toHex(blockNumber)]), 'eth_getCode');
    },

    async getBalance(address: Address, blockNumber: number) {
      const v = hex(await call('eth_getBalance', [address, toHex(blockNumber)]), 'eth_getBalance');
      return v === '0x' ? 0n : BigInt(v);
    },

    async getStorageAt(address: Address, slot: Hash, blockNumber: number) {
      const v = hex(await call('eth_getStorageAt', [address, slot, toHex(blockNumber)]), 'eth_getStorageAt');
      return `0x${v.slice(2).padStart(64, '0')}` as Hash;
    },

    fetchMetadata: createMetadataFetcher(options.metadata),

    pendingPoolMethod: () => pool.method(),
    readPendingPool: (limit: number, known: readonly Hash[] = []) => pool.read(limit, known),
  };
  return source;
}
