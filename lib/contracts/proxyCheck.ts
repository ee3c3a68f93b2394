/**
 * Etherscan's `verifyproxycontract` / `checkproxyverification`: find a verified proxy's
 * implementation, as a job in the contract store (readable from any host sharing it). The
 * implementation is read from the chain's node (ChainConfig.node) as Blockscout's generic
 * resolvers read it, in their order: the EIP-1967 implementation slot, the EIP-1822 (UUPS) slot,
 * the EIP-1967 beacon slot (then the beacon's `implementation()`), OpenZeppelin's legacy slot.
 * Without a node there is nothing to read: the job fails (not detected).
 */
import { keccak256, stringToHex } from 'viem';
import type { ChainConfig } from '../chain-config.ts';
import type { Address, Hash } from '../domain/records.ts';
import type { RpcNode } from '../rpc/node.ts';
import type { VerificationJob as StoredJob } from './records.ts';
import { verifiedByAddress } from './lookup.ts';
import { newJobUid, STALE_JOB_MS } from './submit.ts';
import { IMPLEMENTATION_SELECTOR, PROXY_SLOTS } from '../proxy/slots.ts';
import { hash } from '../domain/hex.ts';

/** The input hash of a proxy check (one job per proxy address, re-run when checked again after it settled). */
export const PROXY_CHECK_INPUT: Hash = hash(keccak256(stringToHex('scoutkit:proxy-implementation')));

const SLOTS = PROXY_SLOTS;

export type ProxyCheckOutcome =
  | { readonly kind: 'queued'; readonly job: StoredJob }
  | { readonly kind: 'not-verified' }
  | { readonly kind: 'unavailable'; readonly message: string };

/** The last 20 bytes of a 32-byte word; null for zero, empty or anything longer (as Blockscout reads them). */
function addressOfWord(value: unknown): Address | null {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]*$/.test(value)) return null;
  const hex = value.slice(2);
  if (hex.length === 0 || hex.length > 64 || /^0*$/.test(hex)) return null;
  return `0x${hex.padStart(64, '0').slice(-40).toLowerCase()}` as Address;
}

async function read(node: RpcNode, method: string, params: readonly unknown[]): Promise<Address | null> {
  const outcome = await node.forward({ method, params });
  return 'result' in outcome ? addressOfWord(outcome.result) : null;
}

/** The implementation behind a proxy, or null when none of the resolvers finds one. */
export async function findImplementation(node: RpcNode, proxy: Address): Promise<Address | null> {
  const slot = (s: string) => read(node, 'eth_getStorageAt', [proxy, s, 'latest']);
  const found = (await slot(SLOTS.eip1967)) ?? (await slot(SLOTS.eip1822));
  if (found !== null && found !== proxy) return found;
  const beacon = await slot(SLOTS.beacon);
  if (beacon !== null) {
    const impl = await read(node, 'eth_call', [{ to: beacon, data: IMPLEMENTATION_SELECTOR }, 'latest']);
    if (impl !== null && impl !== proxy) return impl;
  }
  const legacy = await slot(SLOTS.eip1967Oz);
  return legacy !== null && legacy !== proxy ? legacy : null;
}

/** Start a proxy check for a verified contract (Blockscout requires the proxy itself verified). */
export async function submitProxyCheck(chain: ChainConfig, address: Address, options: { readonly now?: () => number; readonly onError?: (e: unknown) => void } = {}): Promise<ProxyCheckOutcome> {
  const store = chain.contracts;
  if (store === undefined) return { kind: 'unavailable', message: 'Proxy verification is not available on this server (no contract store)' };
  const a = address.toLowerCase() as Address;
  const own = (await verifiedByAddress(chain.store, store, [a])).get(a);
  if (own === undefined) return { kind: 'not-verified' };
  const now = options.now ?? Date.now;
  const at = now();
  const created = await store.createJob({ uid: newJobUid(a, at), address: a, inputHash: PROXY_CHECK_INPUT, inputKind: 'proxy-check', now: at });
  let job = created.job;
  const stale = job.state === 'pending' && at - job.updatedAt > STALE_JOB_MS;
  if (!created.created && (job.state !== 'pending' || stale)) {
    // checked again: the implementation may have changed since
    await store.updateJob(job.uid, { state: 'pending', message: null, now: at });
    job = { ...job, state: 'pending', message: null, updatedAt: at };
  } else if (!created.created) {
    return { kind: 'queued', job };
  }
  const { node } = chain;
  const uid = job.uid;
  void (async () => {
    let settled: { readonly state: 'pass' | 'fail'; readonly message: string | null };
    try {
      const impl = node === undefined ? null : await findImplementation(node, a);
      settled = impl === null ? { state: 'fail', message: node === undefined ? 'no node configured to read the proxy' : null } : { state: 'pass', message: impl };
    } catch (error) {
      options.onError?.(error);
      settled = { state: 'fail', message: error instanceof Error ? error.message : String(error) };
    }
    try {
      await store.updateJob(uid, { ...settled, now: now() });
    } catch (error) {
      options.onError?.(error);
    }
  })();
  return { kind: 'queued', job };
}

/** A proxy check's state; unknown for any other uid (a verification job's too). */
export async function proxyCheckStatus(chain: Pick<ChainConfig, 'contracts'>, uid: string): Promise<StoredJob | null> {
  if (chain.contracts === undefined || uid.trim() === '') return null;
  const job = await chain.contracts.getJob(uid.trim().toLowerCase());
  return job !== null && job.inputHash === PROXY_CHECK_INPUT ? job : null;
}
