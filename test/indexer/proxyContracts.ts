/**
 * Hand-assembled proxies for the anvil proxy tests: an EIP-1967 proxy whose constructor writes the
 * implementation slot and whose 32-byte calls write a new one (an upgrade), an EIP-1167 clone, a
 * beacon and a beacon proxy, a diamond emitting the cuts it is sent; `mined` sends a transaction from anvil's first dev account and waits for its successful receipt.
 */
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import { hex } from '../../lib/domain/hex.ts';
import { DIAMOND_CUT_TOPIC, PROXY_SLOTS, UPGRADED_TOPIC } from '../../lib/proxy/slots.ts';
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

/** LOG2(Upgraded, impl) of the address on the stack, which stays (PUSH32 topic PUSH0 PUSH0 LOG2 after a DUP1) */
const upgradedLog = `80${'7f'}${UPGRADED_TOPIC.slice(2)}5f5fa2`;
/**
 * A beacon as OpenZeppelin's UpgradeableBeacon behaves for the indexer: the implementation in slot 0,
 * `Upgraded(implementation)` emitted at construction and on each upgrade (a 32-byte call).
 */
export const beaconInit = (first: string): Hex =>
  deployer(`7f${word(first)}${upgradedLog}5f55`, `3660201460085700${'5b'}5f35${upgradedLog}5f5500`);
/** A beacon proxy: its constructor writes the EIP-1967 beacon slot; calls stop (decoding reads the input only). */
export const beaconProxyInit = (beacon: string): Hex => deployer(`7f${word(beacon)}7f${PROXY_SLOTS.beacon.slice(2)}55`, '00');
/**
 * A diamond that emits `DiamondCut` with the calldata as its data for every call but 36-byte ones
 * (a facet's `f(uint256)`, which stop): send it `abi.encode(cuts, init, calldata)`.
 */
export const diamondInit = (): Hex => deployer('', `36602414603057365f5f377f${DIAMOND_CUT_TOPIC.slice(2)}365fa1005b00`);

export async function mined(url: string, tx: Record<string, unknown>): Promise<{ transactionHash: Hash; blockNumber: Hex; contractAddress: Address | null }> {
  const hash = (await rpc(url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT0, gas: toHex(200_000), ...tx }])) as Hash;
  for (let i = 0; i < 400; i++) {
    const receipt = (await rpc(url, 'eth_getTransactionReceipt', [hash])) as { transactionHash: Hash; blockNumber: Hex; contractAddress: Address | null; status: Hex } | null;
    if (receipt !== null) {
      if (receipt.status !== hex('0x1')) throw new Error(`transaction ${hash} failed`);
      return receipt;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${hash} not mined`);
}
