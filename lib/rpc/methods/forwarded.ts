/**
 * The state reads a store cannot answer (and `eth_fillTransaction`, which viem tries before
 * filling a transaction itself), forwarded to the chain's node as they came (its result
 * or its error object come back as is): without a node, a -32000 error saying none is configured.
 */
import type { RpcMethod } from '../context.ts';
import { forward } from '../context.ts';

const forwarded = (name: string): RpcMethod => ({ name, run: (ctx, params) => forward(ctx, { method: name, params }) });

export const eth_call = forwarded('eth_call');
export const eth_getCode = forwarded('eth_getCode');
export const eth_getStorageAt = forwarded('eth_getStorageAt');
export const eth_estimateGas = forwarded('eth_estimateGas');
export const eth_sendRawTransaction = forwarded('eth_sendRawTransaction');
export const eth_fillTransaction = forwarded('eth_fillTransaction');
export const eth_createAccessList = forwarded('eth_createAccessList');
