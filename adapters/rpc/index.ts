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
import { traceBlock } from './traces.ts';
import { createPendingPoolReader } from './pending.ts';
import { createMetadataFetcher } from './metadata.ts';
import type { MetadataOptions } from './metadata.ts';
import { arr, hex, num, obj, parseBlock, parseCallTrace, parsePrestateDiff, parseReceipt } from './parse.ts';

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

const UNSUPPORTED = /not (found|supported|available|enabled|exist)|unsupported|unknown (method|tracer)|does not exist|disabled|method .*not/i;

/** the node says it does not know (or does not serve) the method: -32601, "does not exist", ... */
function isUnsupported(e: unknown): boolean {
  const err = classify(e);
  return err instanceof FinalRpcError && (err.code === -32601 || err.code === -32004 || UNSUPPORTED.test(err.message));
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

  /**
   * Probe a method on the head block: unsupported only when the node says it does not know it
   * (-32601, "does not exist", ...). A fault (network, timeout, a backend behind) is retried, and
   * thrown when it lasts: never taken for an answer.
   */
  const probe = async (method: string, params: readonly unknown[]): Promise<boolean> => {
    try {
      await call(method, params);
      return true;
    } catch (e) {
      const err = classify(e);
      if (!(err instanceof FinalRpcError)) throw err;
      if (isUnsupported(err)) return false;
      // genesis is not traceable on some nodes; any other answer about the block: the method exists
      return true;
    }
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
        const head = toHex(await source.headNumber());
        const [traces, prestate, blockReceipts] = await Promise.all([
          fixed.traces ?? probe('debug_traceBlockByNumber', [head, { tracer: 'callTracer' }]),
          fixed.prestate ?? probe('debug_traceBlockByNumber', [head, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
          fixed.blockReceipts ?? probe('eth_getBlockReceipts', [head]),
        ]);
        return { traces, prestate, blockReceipts };
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
      const tracer = { tracer: 'callTracer' };
      return traceBlock({ call, longTimeout: options.longTraceTimeout ?? '25s', log }, block, tracer, parseCallTrace);
    },

    async tracePrestate(block: SourceBlock) {
      const tracer = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };
      return traceBlock({ call, longTimeout: options.longTraceTimeout ?? '25s', log }, block, tracer, parsePrestateDiff);
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

    fetchMetadata: createMetadataFetcher(options.metadata),

    pendingPoolMethod: () => pool.method(),
    readPendingPool: (limit: number, known: readonly Hash[] = []) => pool.read(limit, known),
  };
  return source;
}
