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
import type { EtherscanParam } from '../paramDocs.ts';
import { ADDRESS, TXHASH } from '../paramDocs.ts';

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

const TAG: EtherscanParam = { name: 'tag', description: 'The block: `latest` (default), `earliest`, `pending` or a 0x-hex number', example: 'blockTag' };
const CALL: readonly EtherscanParam[] = [
  { name: 'to', description: 'The call\'s target', required: true, example: 'contract' },
  ...['from', 'data', 'value', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'].map((name) => ({ name, description: `The call's \`${name}\`` })),
];
const ID: EtherscanParam = { name: 'id', description: 'The JSON-RPC id to answer with (default 1)' };

/** method, its params from the query, and the query parameters it reads */
const PROXY: readonly (readonly [string, (q: EtherscanQuery) => readonly unknown[], readonly EtherscanParam[]])[] = [
  ['eth_blockNumber', () => [], []],
  ['eth_chainId', () => [], []],
  ['eth_gasPrice', () => [], []],
  ['eth_getBlockByNumber', (q) => [tag(q), param(q, 'boolean')?.toLowerCase() === 'true'], [TAG, { name: 'boolean', description: '`true`: whole transactions, else their hashes', enum: ['true', 'false'] }]],
  ['eth_getTransactionByHash', (q) => [param(q, 'txhash')], [TXHASH]],
  ['eth_getTransactionReceipt', (q) => [param(q, 'txhash')], [TXHASH]],
  ['eth_getBalance', (q) => [param(q, 'address'), tag(q)], [ADDRESS, TAG]],
  ['eth_getTransactionCount', (q) => [param(q, 'address'), tag(q)], [ADDRESS, TAG]],
  ['eth_call', (q) => [callObject(q), tag(q)], [...CALL, TAG]],
  ['eth_estimateGas', (q) => [callObject(q)], CALL],
  ['eth_getCode', (q) => [param(q, 'address'), tag(q)], [{ ...ADDRESS, example: 'contract' }, TAG]],
  ['eth_getStorageAt', (q) => [param(q, 'address'), param(q, 'position'), tag(q)], [{ ...ADDRESS, example: 'contract' }, { name: 'position', description: 'The storage slot (0x-hex)', required: true }, TAG]],
  ['eth_sendRawTransaction', (q) => [param(q, 'hex')], [{ name: 'hex', description: 'The signed transaction (0x-hex)', required: true }]],
];

/** The request's `id`: a decimal integer as a number, anything else as given; 1 when absent. */
function idOf(q: EtherscanQuery): JsonValue {
  const v = param(q, 'id');
  if (v === undefined) return 1;
  return /^\d{1,15}$/.test(v) ? Number(v) : v;
}

export const PROXY_ACTIONS: readonly EtherscanAction[] = PROXY.map(([method, paramsOf, params]) => ({
  module: 'proxy',
  action: method.toLowerCase(),
  summary: `JSON-RPC \`${method}\` (as \`/api/eth-rpc\` answers it)`,
  params: [...params, ID],
  shape: 'json-rpc',
  async run(ctx, query) {
    // an absent parameter is null (the method then says which one is wrong)
    const params = paramsOf(query).map((p) => (p === undefined ? null : p));
    const outcome = await runMethod({ chain: ctx.chain, ds: ctx.ds, chainId: ctx.chainId }, method, params, ctx.onError);
    return rpcShaped(idOf(query), 'result' in outcome ? { result: outcome.result } : { error: outcome.error as unknown as JsonValue });
  },
}));
