/**
 * A chain's runtime: what the explorer keeps per configured chain — its config (store, contract
 * store, feed, node), its render options, the data version of each copy of its store, and its
 * live hub — built by one function, `createChainRuntime`; the explorer holds one map of them.
 */
import type { EndpointRequest, FailedRequest } from './api.ts';
import type { ChainConfig } from './chain-config.ts';
import type { ReadDataVersion, VersionReaderOptions } from './data-version.ts';
import { combineVersions, createVersionReader } from './data-version.ts';
import type { JsonObject } from './json.ts';
import type { BlockBroadcast } from './live/events.ts';
import type { LiveHub } from './live/hub.ts';
import { createLiveHub } from './live/hub.ts';
import type { DataSource } from './ports.ts';
import { readCopy } from './readCopy.ts';
import type { RenderOptions } from './render/context.ts';

/** One copy of a chain's store as requests read it: the chain's config over it, and its data version. */
export interface ChainCopy {
  readonly config: ChainConfig;
  readonly version: ReadDataVersion;
}

/** What every chain's runtime shares: the explorer's options that concern them. */
export interface ChainRuntimeShared {
  /** the explorer's render options (a chain's add its contract store) */
  readonly render: RenderOptions;
  /** whether answers are cached: without a cache no version is read */
  readonly versioned: boolean;
  /** how often a shared store's version is asked, and on which clock */
  readonly poll: Pick<VersionReaderOptions, 'pollMs' | 'now'>;
  readonly blockBroadcast: BlockBroadcast;
  readonly onError?: (error: unknown, request: FailedRequest) => void;
}

export interface ChainRuntime {
  readonly chainId: string;
  readonly config: ChainConfig;
  /** the chain's render options: the explorer's, and its contract store when it has one */
  readonly render: RenderOptions;
  readonly shared: ChainRuntimeShared;
  /**
   * the verified contracts' version, when answers are cached and the chain has a contract store:
   * its answers then also depend on them (a verification changes embedded addresses)
   */
  readonly contractVersion: ReadDataVersion | undefined;
  /**
   * one reader per copy of the store (the store, or each of its read replicas): the poll interval
   * and the in-flight poll are per copy, and each copy says its own version; the chain's change
   * feed (the primary's) only tells them to ask again
   */
  readonly copies: WeakMap<DataSource, ChainCopy>;
  readonly primary: ChainCopy;
  /** the live hub, made on first use (a chain with a feed only) */
  hub: LiveHub | undefined;
}

const unversioned: ReadDataVersion = () => undefined;

export function createChainRuntime(chainId: string, config: ChainConfig, shared: ChainRuntimeShared): ChainRuntime {
  const contracts = config.contracts;
  const contractVersion =
    shared.versioned && contracts !== undefined ? createVersionReader(contracts, { ...shared.poll, ...(contracts.feed === undefined ? {} : { feed: contracts.feed }) }) : undefined;
  const copies = new WeakMap<DataSource, ChainCopy>();
  const primary = newCopy(config, shared, contractVersion, config.store);
  copies.set(config.store, primary);
  const render = contracts === undefined ? shared.render : { ...shared.render, contracts };
  return { chainId, config, render, shared, contractVersion, copies, primary, hub: undefined };
}

function newCopy(chain: ChainConfig, shared: ChainRuntimeShared, contractVersion: ReadDataVersion | undefined, ds: DataSource): ChainCopy {
  const records = shared.versioned ? createVersionReader(ds, { ...shared.poll, feed: chain.feed }) : unversioned;
  return {
    config: ds === chain.store ? chain : { ...chain, store: ds },
    version: contractVersion === undefined ? records : combineVersions(records, contractVersion),
  };
}

function copyOf(runtime: ChainRuntime, ds: DataSource): ChainCopy {
  let copy = runtime.copies.get(ds);
  if (copy === undefined) {
    copy = newCopy(runtime.config, runtime.shared, runtime.contractVersion, ds);
    runtime.copies.set(ds, copy);
  }
  return copy;
}

/** The copy a request reads: the chain's store, or the replica it picks for the request. */
export function pickCopy(runtime: ChainRuntime, request?: EndpointRequest): ChainCopy {
  const store = runtime.config.store;
  return store.replicas === undefined ? runtime.primary : copyOf(runtime, readCopy(store, request));
}

/** The chain's live hub, made on first use; undefined for a chain without a change feed. */
export function liveHubOf(runtime: ChainRuntime): LiveHub | undefined {
  const { config, shared, chainId } = runtime;
  if (config.feed === undefined) return undefined;
  runtime.hub ??= createLiveHub(config.store, config.feed, shared.render, (error) => shared.onError?.(error, { endpoint: 'events', chainId }), {
    blockBroadcast: shared.blockBroadcast,
    ...(config.contracts?.feed === undefined ? {} : { contracts: config.contracts.feed }),
  });
  return runtime.hub;
}

/** An event for the subscribers of this process: a hub not made yet has none. */
export function publisherOf(runtime: ChainRuntime): (topic: string, event: string, payload: JsonObject) => void {
  return (topic, event, payload) => runtime.hub?.publish(topic, event, payload);
}
