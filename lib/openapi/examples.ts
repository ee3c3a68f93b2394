/**
 * Real values for "Try it out": a few cheap reads of the served store (its head block, the
 * newest transaction, a token and an NFT with a transfer, the newest contract) become the
 * `example`s of the parameters that take such a value, and named example bodies of the JSON-RPC
 * operation. An empty store gives none (the document is the same without them).
 */
import type { ExampleOf } from '../etherscan/paramDocs.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import type { DataSource } from '../ports.ts';
import { etherscanActionOf } from './etherscan.ts';
import { RPC_EXAMPLE } from './rpc.ts';

/** The values, each absent when the store has none. */
export interface StoreExamples {
  /** the chain the document was asked for (the multichain form's `chain_id`) */
  readonly chainId?: string;
  readonly blockNumber?: number;
  readonly blockHash?: string;
  /** unix seconds */
  readonly blockTimestamp?: number;
  readonly transaction?: string;
  /** an address with activity (the newest transaction's sender) */
  readonly address?: string;
  readonly contract?: string;
  /** a token with a transfer (a fungible one when there is one) */
  readonly token?: string;
  /** an NFT token with a transfer, and one of its ids (decimal) */
  readonly nftToken?: string;
  readonly tokenId?: string;
}

const newest = { after: null, limit: 1, order: 'desc' } as const;

/** Read the values: a handful of one-row queries. */
export async function readStoreExamples(ds: DataSource, chainId?: string): Promise<StoreExamples> {
  const [head, [tx], [fungible], [nft], [contract]] = await Promise.all([
    ds.getHighestBlockNumber(),
    ds.listTransactions({ status: 'validated' }, newest),
    ds.listTokenTransfers({ types: ['ERC-20'] }, newest),
    ds.listTokenTransfers({ types: ['ERC-721', 'ERC-1155'] }, newest),
    ds.listContracts({}, newest),
  ]);
  const block = head === null ? null : await ds.getBlock({ number: head });
  const id = nft?.tokenIds[0];
  const token = fungible?.tokenAddress ?? nft?.tokenAddress;
  const contractAddress = contract?.address ?? token;
  const values: StoreExamples = {
    ...(block === null ? {} : { blockNumber: block.number, blockHash: block.hash, blockTimestamp: block.timestamp }),
    ...(tx === undefined ? {} : { transaction: tx.hash, address: tx.from }),
    ...(contractAddress === undefined ? {} : { contract: contractAddress }),
    ...(token === undefined ? {} : { token }),
    ...(nft === undefined || id === undefined ? {} : { nftToken: nft.tokenAddress, tokenId: id.toString() }),
  };
  // an empty store: no examples at all (not even the chain's)
  return Object.keys(values).length === 0 || chainId === undefined ? values : { chainId, ...values };
}

/** The example of a kind of value, as a query or path parameter takes it. */
function valueOf(kind: ExampleOf | 'chainId', ex: StoreExamples): string | undefined {
  switch (kind) {
    case 'chainId':
      return ex.chainId;
    case 'blockNumber':
      return ex.blockNumber?.toString();
    case 'blockTag':
      return ex.blockNumber === undefined ? undefined : `0x${ex.blockNumber.toString(16)}`;
    case 'blockTimestamp':
      return ex.blockTimestamp?.toString();
    case 'date':
      return ex.blockTimestamp === undefined ? undefined : new Date(ex.blockTimestamp * 1000).toISOString().slice(0, 10);
    default:
      return ex[kind];
  }
}

/** Which value an API v2 path parameter takes (the multichain form's too). */
function v2Kind(path: string, name: string): ExampleOf | 'chainId' | undefined {
  switch (name) {
    case 'chain_id':
      return 'chainId';
    case 'transaction_hash_param':
      return 'transaction';
    case 'token_id_param':
      return 'tokenId';
    case 'address_hash_param':
      if (/\/tokens\/\{/.test(path)) return path.includes('{token_id_param}') ? 'nftToken' : 'token';
      if (path.includes('/smart-contracts/')) return 'contract';
      return 'address';
    default:
      return undefined;
  }
}

type Obj = { [key: string]: JsonValue };
const isObject = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A parameter with its example(s); itself when there is none. */
function exemplify(path: string, p: JsonValue, ex: StoreExamples): JsonValue {
  if (!isObject(p) || typeof p.name !== 'string') return p;
  // a block by number or hash: both, the number first (what "Try it out" fills in)
  if (p.name === 'block_hash_or_number_param' && ex.blockNumber !== undefined && ex.blockHash !== undefined) {
    return { ...p, examples: { number: { summary: `block ${ex.blockNumber}`, value: String(ex.blockNumber) }, hash: { summary: `block ${ex.blockNumber} by hash`, value: ex.blockHash } } };
  }
  const kind = path.startsWith('/api?') ? etherscanActionOf(path)?.params.find((q) => q.name === p.name)?.example : v2Kind(path, p.name);
  const value = kind === undefined ? undefined : valueOf(kind, ex);
  return value === undefined ? p : { ...p, example: value };
}

/** Named JSON-RPC bodies with the store's values. */
export function rpcExamples(ex: StoreExamples): Record<string, JsonValue> {
  const call = (method: string, params: JsonValue[]): JsonObject => ({ value: { jsonrpc: '2.0', id: 1, method, params } });
  const out: Record<string, JsonValue> = { eth_blockNumber: { value: RPC_EXAMPLE } };
  const tag = valueOf('blockTag', ex);
  if (tag !== undefined) out.eth_getBlockByNumber = call('eth_getBlockByNumber', [tag, false]);
  if (ex.blockHash !== undefined) out.eth_getBlockByHash = call('eth_getBlockByHash', [ex.blockHash, false]);
  if (ex.transaction !== undefined) {
    out.eth_getTransactionByHash = call('eth_getTransactionByHash', [ex.transaction]);
    out.eth_getTransactionReceipt = call('eth_getTransactionReceipt', [ex.transaction]);
  }
  if (ex.address !== undefined) {
    out.eth_getBalance = call('eth_getBalance', [ex.address, 'latest']);
    out.eth_getTransactionCount = call('eth_getTransactionCount', [ex.address, 'latest']);
  }
  return out;
}

/**
 * The document with the examples: a new tree where something changed, the rest shared with
 * `doc` (which is left as it is). No values: `doc` itself.
 */
export function withExamples(doc: JsonObject, ex: StoreExamples): JsonObject {
  if (Object.keys(ex).length === 0 || !isObject(doc.paths)) return doc;
  const paths: Obj = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObject(item)) {
      paths[path] = item;
      continue;
    }
    const next: Obj = { ...item };
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op)) continue;
      const copy: Obj = { ...op };
      if (Array.isArray(op.parameters)) copy.parameters = op.parameters.map((p) => exemplify(path, p, ex));
      const content = isObject(op.requestBody) && isObject(op.requestBody.content) ? op.requestBody.content['application/json'] : undefined;
      if (op.operationId === 'jsonRpc' && isObject(op.requestBody) && isObject(content)) {
        copy.requestBody = { ...op.requestBody, content: { 'application/json': { ...content, examples: rpcExamples(ex) } } };
      }
      next[method] = copy;
    }
    paths[path] = next;
  }
  return { ...doc, paths };
}
