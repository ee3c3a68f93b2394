/**
 * One config per chain: what the explorer serves a chain from, handed whole to every dialect
 * (API v2 endpoints, the Etherscan-compatible dialect, JSON-RPC).
 */
import type { ContractStore } from './contracts/store.ts';
import type { ContractVerifier } from './contracts/verifier.ts';
import type { ChangeFeed } from './feed/change.ts';
import type { DataSource } from './ports.ts';
import type { RpcNode } from './rpc/node.ts';

/**
 * What serves one chain. Room for what comes next, one field each, so that it is threaded once:
 * a contract store (verified sources and ABIs, keyed by code hash, outside block rollback) and a
 * change feed (what each write changed, for live updates).
 */
export interface ChainConfig {
  /** the chain's records */
  readonly store: DataSource;
  /** the node that answers the JSON-RPC state reads a store cannot (eth_call, ...) */
  readonly node?: RpcNode;
  /** verified contracts (sources, ABIs) and verification jobs, keyed by code hash, outside block rollback; without it nothing is verified */
  readonly contracts?: ContractStore;
  /**
   * compiles submitted sources and matches them against the chain's code (adapters/solc); with
   * `contracts`, the verification endpoints run jobs through it; without it they answer that
   * verification is not available here
   */
  readonly verifier?: ContractVerifier;
  /**
   * what each write to the store changed (the stores' own `feed`): live updates
   * (`explorer.subscribe`, `/events`) and the response cache seeing another process's write at once
   */
  readonly feed?: ChangeFeed;
}

/** A chain as `createExplorer` accepts it: its config, or a bare DataSource for `{ store }`. */
export type ChainSetting = ChainConfig | DataSource;

const isDataSource = (setting: ChainSetting): setting is DataSource =>
  typeof (setting as Partial<DataSource>).getHighestBlockNumber === 'function';

/** A setting as a config (a bare DataSource becomes `{ store }`). */
export function toChainConfig(setting: ChainSetting): ChainConfig {
  return isDataSource(setting) ? { store: setting } : setting;
}

/** Every chain's setting as a config, normalised once. */
export function chainConfigs(chains: Readonly<Record<string, ChainSetting>>): Readonly<Record<string, ChainConfig>> {
  const out: Record<string, ChainConfig> = {};
  for (const id of Object.keys(chains)) out[id] = toChainConfig(chains[id] as ChainSetting);
  return out;
}
