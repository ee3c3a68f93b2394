/**
 * Hand-assembled proxies for the anvil proxy tests: an EIP-1967 proxy whose constructor writes the
 * implementation slot and whose 32-byte calls write a new one (an upgrade), and an EIP-1167 clone;
 * `mined` sends a transaction from anvil's first dev account and waits for its successful receipt.
 */
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import { PROXY_SLOTS } from '../../lib/proxy/slots.ts';
import { DEV_ACCOUNT0, rpc, toHex } from './helpers.ts';

export const word = (a: string): string => a.slice(2).toLowerCase().padStart(64, '0');
export const byte = (n: number): string => n.toString(16).padStart(2, '0');

/** init code returning `runtime` after `prefix` (PUSH1 len DUP1 PUSH1 off PUSH0 CODECOPY PUSH0 RETURN) */
export function deployer(prefix: string, runtime: string): Hex {
  const len = runtime.length / 2;
  const offset = prefix.length / 2 + 9;
  return `0x${prefix}60${byte(len)}8060${byte(offset)}5f395ff3${runtime}` as Hex;
}
/** EIP-1967 proxy runtime: a 32-byte call writes the slot (PUSH0 CALLDATALOAD PUSH32 slot SSTORE STOP), any other call stops */
const proxyRuntime = `3660201460085700${'5b'}5f357f${PROXY_SLOTS.eip1967.slice(2)}5500`;
/** init code of an EIP-1967 proxy whose constructor SSTOREs `first` as the implementation */
export const proxyInit = (first: string): Hex => deployer(`7f${word(first)}7f${PROXY_SLOTS.eip1967.slice(2)}55`, proxyRuntime);
/** init code of an EIP-1167 minimal proxy delegating to `target` */
export const cloneInit = (target: string): Hex => deployer('', `363d3d373d3d3d363d73${target.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`);

export async function mined(url: string, tx: Record<string, unknown>): Promise<{ transactionHash: Hash; blockNumber: Hex; contractAddress: Address | null }> {
  const hash = (await rpc(url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT0, gas: toHex(200_000), ...tx }])) as Hash;
  for (let i = 0; i < 400; i++) {
    const receipt = (await rpc(url, 'eth_getTransactionReceipt', [hash])) as { transactionHash: Hash; blockNumber: Hex; contractAddress: Address | null; status: Hex } | null;
    if (receipt !== null) {
      if (receipt.status !== '0x1') throw new Error(`transaction ${hash} failed`);
      return receipt;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${hash} not mined`);
}
