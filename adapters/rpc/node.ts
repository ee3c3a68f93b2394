/**
 * lib's `RpcNode` over viem's http transport: the JSON-RPC calls a store cannot answer go to the
 * chain's node as they came, and the node's answer comes back as is — its result, or its error
 * object (code, message and data, e.g. an `eth_call` revert). No retries: a forwarded
 * `eth_sendRawTransaction` must not be sent twice, and the caller retries as it would with a node.
 *
 *   const nodes = { '1': createRpcNode('http://127.0.0.1:8545') };
 */
import { BaseError, http, RpcRequestError } from 'viem';
import type { JsonValue } from '../../lib/json.ts';
import type { RpcNode } from '../../lib/rpc/node.ts';

export interface RpcNodeOptions {
  /** per call (default 30,000 ms) */
  readonly timeoutMs?: number;
}

export function createRpcNode(url: string, options: RpcNodeOptions = {}): RpcNode {
  const transport = http(url, { timeout: options.timeoutMs ?? 30_000, retryCount: 0, batch: false })({ retryCount: 0 });
  return {
    async forward(call) {
      try {
        const result = (await transport.request({ method: call.method, params: call.params as unknown[] })) as JsonValue;
        return { result: result ?? null };
      } catch (e) {
        // viem wraps the node's error by its code (ExecutionRevertedError, ...): the original is inside
        const found = e instanceof BaseError ? e.walk((x) => x instanceof RpcRequestError) : null;
        if (found instanceof RpcRequestError) {
          const message = typeof found.details === 'string' ? found.details : found.shortMessage;
          return { error: found.data === undefined ? { code: found.code, message } : { code: found.code, message, data: found.data as JsonValue } };
        }
        throw e;
      }
    },
  };
}
