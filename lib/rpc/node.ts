/**
 * The port to a chain's node, for the state reads a store cannot answer (`eth_call`,
 * `eth_getCode`, `eth_getStorageAt`, `eth_estimateGas`, `eth_sendRawTransaction`, balances at
 * old blocks). adapters/rpc implements it over viem's http transport; without one, those
 * methods answer a JSON-RPC error saying that no node is configured.
 */
import type { RpcCall, RpcOutcome } from './protocol.ts';

export interface RpcNode {
  /**
   * Send one call as is; the node's answer comes back as is: its result, or its error object
   * (code, message and data, e.g. the revert data of `eth_call`). Rejects only when the node
   * could not be reached or answered nonsense.
   */
  forward(call: RpcCall): Promise<RpcOutcome>;
}
