/**
 * The JSON-RPC subset: the method registry and `answerRpc`, which answers a parsed body (one
 * call or a batch) against one chain. Never throws: a store that fails gives its call a -32603
 * error (and `onError` the cause); the other calls of a batch still answer.
 */
import type { JsonValue } from '../json.ts';
import type { RpcContext, RpcMethod } from './context.ts';
import { eth_accounts } from './methods/eth_accounts.ts';
import { eth_blockNumber } from './methods/eth_blockNumber.ts';
import { eth_chainId } from './methods/eth_chainId.ts';
import { eth_feeHistory } from './methods/eth_feeHistory.ts';
import { eth_gasPrice } from './methods/eth_gasPrice.ts';
import { eth_getBalance } from './methods/eth_getBalance.ts';
import { eth_getBlockByHash } from './methods/eth_getBlockByHash.ts';
import { eth_getBlockByNumber } from './methods/eth_getBlockByNumber.ts';
import { eth_getLogs } from './methods/eth_getLogs.ts';
import { eth_getTransactionCount } from './methods/eth_getTransactionCount.ts';
import { eth_getTransactionByHash } from './methods/eth_getTransactionByHash.ts';
import { eth_getTransactionReceipt } from './methods/eth_getTransactionReceipt.ts';
import { eth_maxPriorityFeePerGas } from './methods/eth_maxPriorityFeePerGas.ts';
import {
  eth_call,
  eth_createAccessList,
  eth_estimateGas,
  eth_fillTransaction,
  eth_getCode,
  eth_getStorageAt,
  eth_sendRawTransaction,
} from './methods/forwarded.ts';
import { net_version } from './methods/net_version.ts';
import { web3_clientVersion } from './methods/web3_clientVersion.ts';
import type { Entry, RpcOutcome, RpcResponse } from './protocol.ts';
import { parseBody, response, RPC_CODES, rpcError } from './protocol.ts';

export type { RpcContext, RpcMethod } from './context.ts';
export type { RpcNode } from './node.ts';

/** Every method served, by name: from the store, then forwarded to the node. */
export const RPC_METHODS: Readonly<Record<string, RpcMethod>> = Object.fromEntries(
  [
    eth_blockNumber,
    eth_chainId,
    eth_getBalance,
    eth_getLogs,
    eth_getTransactionByHash,
    eth_getTransactionReceipt,
    eth_getBlockByNumber,
    eth_getBlockByHash,
    eth_gasPrice,
    eth_maxPriorityFeePerGas,
    eth_feeHistory,
    eth_getTransactionCount,
    net_version,
    web3_clientVersion,
    eth_accounts,
    eth_call,
    eth_getCode,
    eth_getStorageAt,
    eth_estimateGas,
    eth_sendRawTransaction,
    eth_fillTransaction,
    eth_createAccessList,
  ].map((m) => [m.name, m]),
);

/** Run one call by name (the Etherscan dialect's `module=proxy` reuses this). */
export async function runMethod(ctx: RpcContext, method: string, params: readonly unknown[], onError?: (error: unknown) => void): Promise<RpcOutcome> {
  const m = Object.prototype.hasOwnProperty.call(RPC_METHODS, method) ? RPC_METHODS[method] : undefined;
  if (m === undefined) return rpcError(RPC_CODES.methodNotFound, `the method ${method} does not exist/is not available`);
  try {
    return await m.run(ctx, params);
  } catch (error) {
    onError?.(error);
    return rpcError(RPC_CODES.internalError, 'Internal error: the data source failed to answer');
  }
}

async function answerEntry(ctx: RpcContext, entry: Entry, onError?: (error: unknown) => void): Promise<RpcResponse> {
  if ('error' in entry) return response(entry.id, { error: entry.error });
  return response(entry.id, await runMethod(ctx, entry.call.method, entry.call.params, onError));
}

/**
 * The JSON-RPC answer to a body (parsed JSON; undefined when it was not JSON): one response,
 * or an array of them in request order for a batch.
 */
export async function answerRpc(ctx: RpcContext, body: unknown, onError?: (error: unknown) => void): Promise<JsonValue> {
  const parsed = parseBody(body);
  switch (parsed.kind) {
    case 'invalid':
      return response(null, { error: parsed.error }) as unknown as JsonValue;
    case 'single':
      return (await answerEntry(ctx, parsed.entry, onError)) as unknown as JsonValue;
    case 'batch':
      return (await Promise.all(parsed.entries.map((e) => answerEntry(ctx, e, onError)))) as unknown as JsonValue;
  }
}
