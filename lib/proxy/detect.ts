/**
 * Proxies from the data the indexer already reads, no extra node call: the storage writes of a
 * block's prestate diffs (EIP-1967 implementation and beacon slots, EIP-1822, OpenZeppelin's
 * legacy slot, Safe's master copy in slot 0 for Safe proxy code) and code (EIP-1167 and the other
 * minimal proxies from created code, EIP-7702 delegations `0xef0100 || address` from the code an
 * authorization sets on an account). Every change is seen at the transaction it happened in. Pure.
 *
 * Logs: a beacon's `Upgraded(address indexed implementation)` (OpenZeppelin's UpgradeableBeacon
 * emits it at construction and on upgradeTo) gives the beacon a `basic_implementation` record —
 * what Blockscout shows for it, its code answering `implementation()` — unless the same
 * transaction wrote a proxy slot of that account (an EIP-1967 proxy emits the same event); an
 * EIP-2535 diamond's `DiamondCut` events give it an `eip2535` record with the cuts.
 *
 * A beacon proxy's record names the beacon and leaves `implementations` empty: its implementation
 * is the beacon's in force at each point, resolved when read (lib/proxy/history.ts).
 */
import { decodeAbiParameters } from 'viem';
import type { PrestateDiff } from '../chain-source.ts';
import type { Address, ContractCodeRecord, FacetCut, Hash, Hex, LogRecord, ProxyRecord, ProxyType } from '../domain/records.ts';
import { DIAMOND_CUT_TOPIC, PROXY_SLOTS, UPGRADED_TOPIC } from './slots.ts';
import { EMPTY_HEX } from '../domain/hex.ts';

export interface ProxyDetectionInput {
  readonly blockNumber: number;
  /** the block's transactions' hashes in order (to place each diff) */
  readonly transactionHashes: readonly Hash[];
  /** prestateTracer diffMode of the block; null without one (then only created code is read) */
  readonly diffs: readonly PrestateDiff[] | null;
  readonly contractCodes: readonly ContractCodeRecord[];
  /** the block's logs (`Upgraded` of beacons, `DiamondCut` of diamonds); none: not read */
  readonly logs?: readonly LogRecord[];
}

const EIP1167 = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/;
const EIP1167_44 = /^0x3d3d3d3d363d3d37363d73([0-9a-f]{40})5af43d3d93803e602a57fd5bf3$/;
const MINIMAL = /3d3d3d3d363d3d37363d73([0-9a-f]{40})/;
const EIP7702 = /^0xef0100([0-9a-f]{40})$/;
/** The executable part of Safe's proxy (v1.1.1 to v1.4.1); what follows is Solidity metadata. */
const SAFE_PROXY =
  /^0x608060405273ffffffffffffffffffffffffffffffffffffffff600054167fa619486e0000000000000000000000000000000000000000000000000000000060003514156050578060005260206000f35b3660008037600080366000845af43d6000803e60008114156070573d6000fd5b3d6000f3fe[0-9a-f]*$/;

const ZERO = /^0x0*$/;

/** Code that points at an implementation by itself (Blockscout's bytecode resolvers, first match wins). */
export function implementationOfCode(code: Hex): { type: ProxyType; implementation: Address } | null {
  const c = code.toLowerCase();
  const match = (re: RegExp): Address | null => {
    const m = re.exec(c);
    return m?.[1] === undefined ? null : (`0x${m[1]}` as Address);
  };
  const clone = match(EIP1167) ?? match(EIP1167_44);
  if (clone !== null) return { type: 'eip1167', implementation: clone };
  const delegate = match(EIP7702);
  if (delegate !== null) return ZERO.test(delegate) ? null : { type: 'eip7702', implementation: delegate };
  if ((c.length - 2) / 2 <= 100) {
    const minimal = match(MINIMAL);
    if (minimal !== null) return { type: 'minimal_proxy', implementation: minimal };
  }
  return null;
}

export const isSafeProxyCode = (code: Hex): boolean => SAFE_PROXY.test(code.toLowerCase());

const normalSlot = (slot: Hash): Hash => `0x${slot.slice(2).toLowerCase().padStart(64, '0')}` as Hash;

/** The last 20 bytes of a word; null for zero or a value longer than 32 bytes (as Blockscout reads them). */
function addressOfWord(word: Hex | undefined): Address | null {
  if (word === undefined) return null;
  const hex = word.slice(2).toLowerCase();
  if (hex.length > 64 || /^0*$/.test(hex)) return null;
  return `0x${hex.padStart(64, '0').slice(-40)}` as Address;
}

/** The slots a transaction wrote, per account: the new value, or zero when the diff clears it. */
function storageWrites(diff: PrestateDiff): Map<Address, Map<Hash, Hash>> {
  const out = new Map<Address, Map<Hash, Hash>>();
  for (const [address, post] of diff.post) {
    const writes = new Map<Hash, Hash>();
    for (const [slot, value] of post.storage ?? []) writes.set(normalSlot(slot), value);
    // diffMode leaves a slot set to zero out of `post`: it is in `pre` only
    for (const slot of diff.pre.get(address)?.storage?.keys() ?? []) {
      const s = normalSlot(slot);
      if (!writes.has(s)) writes.set(s, PROXY_SLOTS.masterCopy);
    }
    if (writes.size > 0) out.set(address, writes);
  }
  return out;
}

const SLOT_ORDER: readonly { slot: Hash; type: ProxyType }[] = [
  { slot: PROXY_SLOTS.eip1967, type: 'eip1967' },
  { slot: PROXY_SLOTS.eip1822, type: 'eip1822' },
  { slot: PROXY_SLOTS.beacon, type: 'eip1967_beacon' },
  { slot: PROXY_SLOTS.eip1967Oz, type: 'eip1967_oz' },
];

/**
 * Every proxy change of one block, in transaction order (one record per proxy and transaction;
 * when a transaction writes several proxy slots of one account, the first in Blockscout's order
 * wins). Zero written to a slot gives a record with no implementation.
 */
export function detectProxies(input: ProxyDetectionInput): ProxyRecord[] {
  const indexOf = new Map(input.transactionHashes.map((h, i) => [h.toLowerCase(), i]));
  const created = new Map(input.contractCodes.map((c) => [c.address.toLowerCase(), c]));
  const out: ProxyRecord[] = [];
  const seen = new Set<string>();
  const push = (r: ProxyRecord): void => {
    const key = `${r.transactionHash}|${r.proxy}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ ...r, implementations: r.implementations.filter((a) => a !== r.proxy) });
  };
  const recordAt = (hash: Hash, index: number) => ({ blockNumber: input.blockNumber, transactionHash: hash, transactionIndex: index });

  for (const c of [...input.contractCodes].sort((a, b) => a.transactionIndex - b.transactionIndex)) {
    const found = implementationOfCode(c.deployedBytecode);
    if (found !== null) push({ proxy: c.address, type: found.type, implementations: [found.implementation], beacon: null, ...recordAt(c.transactionHash, c.transactionIndex) });
  }

  for (const diff of input.diffs ?? []) {
    const index = indexOf.get(diff.transactionHash.toLowerCase()) ?? -1;
    const at = recordAt(diff.transactionHash, index);
    // code set or cleared on an account: EIP-7702 delegations (and their revocation)
    for (const [address, post] of diff.post) {
      if (post.code === undefined) continue;
      const delegate = EIP7702.exec(post.code.toLowerCase())?.[1];
      const before = diff.pre.get(address)?.code;
      if (delegate !== undefined) {
        push({ proxy: address, type: 'eip7702', implementations: ZERO.test(delegate) ? [] : [`0x${delegate}` as Address], beacon: null, ...at });
      } else if (before !== undefined && EIP7702.test(before.toLowerCase()) && post.code === EMPTY_HEX) {
        push({ proxy: address, type: 'eip7702', implementations: [], beacon: null, ...at });
      }
    }
    for (const [address, writes] of storageWrites(diff)) {
      for (const { slot, type } of SLOT_ORDER) {
        const value = writes.get(slot);
        if (value === undefined) continue;
        const target = addressOfWord(value);
        if (type === 'eip1967_beacon') push({ proxy: address, type, implementations: [], beacon: target, ...at });
        else push({ proxy: address, type, implementations: target === null ? [] : [target], beacon: null, ...at });
        break;
      }
      const masterCopy = writes.get(PROXY_SLOTS.masterCopy);
      if (masterCopy !== undefined) {
        const code = created.get(address)?.deployedBytecode ?? diff.post.get(address)?.code ?? diff.pre.get(address)?.code;
        if (code !== undefined && isSafeProxyCode(code)) {
          const target = addressOfWord(masterCopy);
          push({ proxy: address, type: 'master_copy', implementations: target === null ? [] : [target], beacon: null, ...at });
        }
      }
    }
  }
  for (const r of logRecords(input.logs ?? [], input.blockNumber)) push(r);
  return out.sort((a, b) => a.transactionIndex - b.transactionIndex);
}

const DIAMOND_CUT_PARAMS = [
  { type: 'tuple[]', components: [{ type: 'address' }, { type: 'uint8' }, { type: 'bytes4[]' }] },
  { type: 'address' },
  { type: 'bytes' },
] as const;

/** A `DiamondCut` log's cuts, or null when its data does not decode. */
export function diamondCuts(data: Hex): FacetCut[] | null {
  try {
    const [cuts] = decodeAbiParameters(DIAMOND_CUT_PARAMS, data);
    return cuts.map(([facet, action, selectors]) => ({
      facet: facet.toLowerCase() as Address,
      action,
      selectors: selectors.map((s) => s.toLowerCase() as Hex),
    }));
  } catch {
    return null;
  }
}

/** Beacons' upgrades and diamonds' cuts from the logs, one record per account and transaction (log order). */
function logRecords(logs: readonly LogRecord[], blockNumber: number): ProxyRecord[] {
  const out = new Map<string, ProxyRecord>();
  for (const log of [...logs].sort((a, b) => a.index - b.index)) {
    const topic0 = log.topics[0]?.toLowerCase();
    const proxy = log.address.toLowerCase() as Address;
    const key = `${log.transactionHash}|${proxy}`;
    const at = { proxy, beacon: null, blockNumber, transactionHash: log.transactionHash, transactionIndex: log.transactionIndex };
    const before = out.get(key);
    if (topic0 === UPGRADED_TOPIC && log.topics.length === 2) {
      if (before !== undefined && before.type !== 'basic_implementation') continue;
      const target = addressOfWord(log.topics[1]);
      out.set(key, { ...at, type: 'basic_implementation', implementations: target === null ? [] : [target] });
    } else if (topic0 === DIAMOND_CUT_TOPIC && log.topics.length === 1) {
      const cuts = diamondCuts(log.data);
      if (cuts === null || (before !== undefined && before.type !== 'eip2535')) continue;
      const all = [...(before?.cuts ?? []), ...cuts];
      const facets = [...new Set(all.filter((c) => c.action !== 2 && !ZERO.test(c.facet)).map((c) => c.facet))];
      out.set(key, { ...at, type: 'eip2535', implementations: facets, cuts: all });
    }
  }
  return [...out.values()];
}
