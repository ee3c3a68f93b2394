/**
 * `module=proxy`: Etherscan's JSON-RPC reads, answered by the same methods as `/api/eth-rpc`
 * (lib/rpc's runMethod: from the store, the state reads forwarded to the node when one is
 * configured). The body is a JSON-RPC envelope `{jsonrpc, id, result}` or `{jsonrpc, id,
 * error: {code, message, data?}}` (what Etherscan and its clients, e.g. ethers, read). Each
 * action maps its query parameters to the method's params.
 */
import type { JsonObject, JsonValue } from '../../json.ts';
import { runMethod } from '../../rpc/index.ts';
import type { EtherscanAction, EtherscanQuery } from '../action.ts';
import { rpcShaped } from '../action.ts';
import { param } from '../params.ts';

const tag = (q: EtherscanQuery): string => param(q, 'tag') ?? 'latest';

/** A call object from the query (`gasLimit` is ethers' name for `gas`). */
function callObject(q: EtherscanQuery): JsonObject {
  const out: Record<string, string> = {};
  for (const [name, key] of [
    ['from', 'from'],
    ['to', 'to'],
    ['gas', 'gas'],
    ['gasLimit', 'gas'],
    ['gasPrice', 'gasPrice'],
    ['maxFeePerGas', 'maxFeePerGas'],
    ['maxPriorityFeePerGas', 'maxPriorityFeePerGas'],
    ['value', 'value'],
    ['data', 'data'],
    ['input', 'input'],
    ['nonce', 'nonce'],
    ['type', 'type'],
  ] as const) {
    const v = param(q, name);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

const PROXY: readonly (readonly [string, (q: EtherscanQuery) => readonly unknown[]])[] = [
  ['eth_blockNumber', () => []],
  ['eth_chainId', () => []],
  ['eth_gasPrice', () => []],
  ['eth_getBlockByNumber', (q) => [tag(q), param(q, 'boolean')?.toLowerCase() === 'true']],
  ['eth_getTransactionByHash', (q) => [param(q, 'txhash')]],
  ['eth_getTransactionReceipt', (q) => [param(q, 'txhash')]],
  ['eth_getBalance', (q) => [param(q, 'address'), tag(q)]],
  ['eth_getTransactionCount', (q) => [param(q, 'address'), tag(q)]],
  ['eth_call', (q) => [callObject(q), tag(q)]],
  ['eth_estimateGas', (q) => [callObject(q)]],
  ['eth_getCode', (q) => [param(q, 'address'), tag(q)]],
  ['eth_getStorageAt', (q) => [param(q, 'address'), param(q, 'position'), tag(q)]],
  ['eth_sendRawTransaction', (q) => [param(q, 'hex')]],
];

/** The request's `id`: a decimal integer as a number, anything else as given; 1 when absent. */
function idOf(q: EtherscanQuery): JsonValue {
  const v = param(q, 'id');
  if (v === undefined) return 1;
  return /^\d{1,15}$/.test(v) ? Number(v) : v;
}

export const PROXY_ACTIONS: readonly EtherscanAction[] = PROXY.map(([method, paramsOf]) => ({
  module: 'proxy',
  action: method.toLowerCase(),
  async run(ctx, query) {
    // an absent parameter is null (the method then says which one is wrong)
    const params = paramsOf(query).map((p) => (p === undefined ? null : p));
    const outcome = await runMethod({ chain: ctx.chain, ds: ctx.ds, chainId: ctx.chainId }, method, params, ctx.onError);
    return rpcShaped(idOf(query), 'result' in outcome ? { result: outcome.result } : { error: outcome.error as unknown as JsonValue });
  },
}));
