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
  SourceBlock,
  SourceReceipt,
  TokenRead,
  TokenReadResult,
} from '../../lib/chain-source.ts';
import { classify, DEFAULT_RETRY, FinalRpcError, withRetry } from './errors.ts';
import type { RetryPolicy } from './errors.ts';
import { createMetadataFetcher } from './metadata.ts';
import type { MetadataOptions } from './metadata.ts';
import { arr, hex, num, parseBlock, parseCallTraces, parsePrestateDiffs, parseReceipt } from './parse.ts';

export { RetryableRpcError, FinalRpcError, classify, withRetry } from './errors.ts';
export type { RetryPolicy } from './errors.ts';
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
  /** warnings (e.g. falling back to latest state for reads) */
  readonly log?: (line: string) => void;
}

export interface RpcChainSource extends ChainSource {
  /** requests sent (each JSON-RPC call counts once, batched or not) */
  requestCount(): number;
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
  let requests = 0;

  const call = (method: string, params: readonly unknown[]): Promise<unknown> =>
    withRetry(method, () => {
      requests++;
      return raw({ method, params });
    }, policy);

  let caps: Promise<ChainCapabilities> | undefined;
  let readsAtLatest = false;
  const receiptsOf = async (block: SourceBlock, blockReceipts: boolean): Promise<SourceReceipt[]> => {
    if (block.transactions.length === 0) return [];
    let list: SourceReceipt[];
    if (blockReceipts) {
      list = arr(await call('eth_getBlockReceipts', [toHex(block.number)]), 'eth_getBlockReceipts').map(parseReceipt);
    } else {
      list = await Promise.all(
        block.transactions.map(async (tx) => parseReceipt(await call('eth_getTransactionReceipt', [tx.hash]))),
      );
    }
    const byHash = new Map(list.map((r) => [r.transactionHash, r]));
    return block.transactions.map((tx) => {
      const r = byHash.get(tx.hash);
      if (r === undefined) throw new FinalRpcError(`block ${block.number}: no receipt for ${tx.hash} (reorg in progress?)`, null, null);
      return r;
    });
  };

  /** Probe a method on the head block: supported unless the node says it does not know it. */
  const probe = async (method: string, params: readonly unknown[]): Promise<boolean> => {
    try {
      requests++;
      await raw({ method, params });
      return true;
    } catch (e) {
      const err = classify(e);
      if (err instanceof FinalRpcError && (err.code === -32601 || err.code === -32004 || UNSUPPORTED.test(err.message))) return false;
      // genesis is not traceable on some nodes; anything else: assume supported and let real calls fail loudly
      return true;
    }
  };

  const source: RpcChainSource = {
    requestCount: () => requests,

    async chainId() {
      return num(await call('eth_chainId', []), 'eth_chainId');
    },

    async blockHash(number: number): Promise<Hash | null> {
      const b = await call('eth_getBlockByNumber', [toHex(number), false]);
      if (b === null) return null;
      if (typeof b !== 'object') return null;
      return hex((b as { hash?: unknown }).hash, 'block.hash');
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
      if (block.transactions.length === 0) return [];
      const r = await call('debug_traceBlockByNumber', [toHex(block.number), { tracer: 'callTracer' }]);
      return parseCallTraces(r, block.transactions.map((t) => t.hash));
    },

    async tracePrestate(block: SourceBlock) {
      if (block.transactions.length === 0) return [];
      const r = await call('debug_traceBlockByNumber', [toHex(block.number), { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
      return parsePrestateDiffs(r, block.transactions.map((t) => t.hash));
    },

    async readTokens(reads: readonly TokenRead[], blockNumber: number) {
      const one = async (r: TokenRead): Promise<TokenReadResult> => {
        const tag = readsAtLatest ? 'latest' : toHex(blockNumber);
        try {
          const data = await call('eth_call', [{ to: r.token, data: encodeRead(r) }, tag]);
          return decodeRead(r, hex(data, 'eth_call'));
        } catch (e) {
          const err = classify(e);
          if (err instanceof FinalRpcError && !readsAtLatest && /missing trie node|header not found|historical state|state .*(not available|unavailable|pruned)/i.test(err.message)) {
            readsAtLatest = true;
            log('warning: the node has no historical state: token reads now use the latest state (balances may run ahead of the indexed block)');
            return one(r);
          }
          if (err instanceof FinalRpcError) return null; // reverted / not implemented: no value
          throw err;
        }
      };
      /** ERC-1155 balances: balanceOf(holder, id), else balanceOfBatch([holder], [id]) (both are required by the standard) */
      const read = async (r: TokenRead): Promise<TokenReadResult> => {
        const v = await one(r);
        if (v !== null || r.kind !== 'balanceOf1155') return v;
        const tag = readsAtLatest ? 'latest' : toHex(blockNumber);
        const data = encodeFunctionData({ abi: TOKEN_ABI, functionName: 'balanceOfBatch', args: [[r.holder], [r.id]] });
        try {
          const out = hex(await call('eth_call', [{ to: r.token, data }, tag]), 'eth_call');
          return decodeFunctionResult({ abi: TOKEN_ABI, functionName: 'balanceOfBatch', data: out })[0] ?? null;
        } catch (e) {
          if (classify(e) instanceof FinalRpcError) return null;
          throw e;
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
  };
  return source;
}
