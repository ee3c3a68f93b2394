/**
 * createExplorer: the core's public entry. `handle` answers a request by path (both forms),
 * `dispatch` a request the host already routed. Neither throws: every failure is a response.
 */
import * as E from 'fp-ts/lib/Either.js';
import type {
  EndpointRequest,
  EtherscanRequest,
  Explorer,
  ExplorerOptions,
  ExplorerRequest,
  ExplorerResponse,
  FailedRequest,
  RawQuery,
  Route,
  RpcRequest,
} from './api.ts';
import { ETHERSCAN_ENDPOINT, RPC_ENDPOINT } from './api.ts';
import type { ResponseCache, ResponseCacheOptions } from './cache.ts';
import type { ChainConfig } from './chain-config.ts';
import { chainConfigs } from './chain-config.ts';
import { classifyPath } from './classify.ts';
import { createResponseCache, requestKey } from './cache.ts';
import type { ChainCopy, ChainRuntime, ChainRuntimeShared } from './chain-runtime.ts';
import { createChainRuntime, liveHubOf, pickCopy, publisherOf } from './chain-runtime.ts';
import { indexAbi } from './decode/abiIndex.ts';
import type { AnyEndpoint } from './endpoints/endpoint.ts';
import { methodOf } from './endpoints/endpoint.ts';
import { ENDPOINT_NAMES, endpointByName } from './endpoints/index.ts';
import type { EtherscanQuery } from './etherscan/index.ts';
import { answerEtherscan, answerLegacy, legacyAction } from './etherscan/index.ts';
import type { ApiError } from './errors.ts';
import { errorResponse } from './errors.ts';
import type { JsonObject, JsonValue } from './json.ts';
import { decodeBody } from './params/body.ts';
import { decodeRequest } from './params/decode.ts';
import type { RenderOptions } from './render/context.ts';
import { answerRpc } from './rpc/index.ts';
import type { SourcifyRequest } from './sourcify/index.ts';
import { answerSourcify, SOURCIFY_ENDPOINT } from './sourcify/index.ts';
import type { RouteMatcher } from './routes.ts';
import { matchRoute, routeMatcher, routeOf, ROUTES } from './routes.ts';
import { StreamedBody, streamedHeaders } from './streamed.ts';
import type { LiveDeps } from './endpoints/endpoint.ts';
import type { BlockBroadcast, LiveEvent } from './live/events.ts';
import { parseTopic } from './live/topics.ts';

export const DEFAULT_IPFS_GATEWAY = 'https://ipfs.io/ipfs/';

export interface CreateExplorerOptions extends ExplorerOptions {
  /** gateway for ipfs:// metadata URLs (default https://ipfs.io/ipfs/) */
  readonly ipfsGateway?: string;
  /** called with unexpected exceptions (the response is then a 503; in JSON-RPC a -32603 error); default: none */
  readonly onError?: (error: unknown, request: FailedRequest) => void;
  /**
   * Cache rendered answers of sources that report a data version (memory and SQL stores do):
   * default 500 answers; `{ maxEntries: 0 }` turns it off. A store's own writes are seen by the
   * next request; another process's writes within `versionPollMs` (default 100 ms).
   */
  readonly cache?: ResponseCacheOptions;
  /** rows per CSV export (`/…/csv` paths; `/config/csv-export` reports it): default 10,000, Blockscout's CSV_EXPORT_LIMIT */
  readonly csvExport?: { readonly limit?: number };
  /**
   * The clock of answers over time windows (`/stats`, `/transactions/stats`, charts, hot
   * contracts), in ms since the epoch; default Date.now. Tests set it to reach fixed data.
   */
  readonly now?: () => number;
  /**
   * Endpoints beside the registry's, by name (`erased(defineEndpoint({...}))`): routed by their
   * method and route like the registry's, never cached when their method is not GET. A name or
   * a method and route the registry already has is refused.
   */
  readonly endpoints?: Readonly<Record<string, AnyEndpoint>>;
  /**
   * Live updates of chains with a change feed (`/events`, `explorer.subscribe`): topics per
   * connection (default 100), the heartbeat comment's interval (default 15 s), messages waiting
   * for a slow client before it is ended (default 1,000), and how new blocks are announced on
   * `blocks:new_block` (Blockscout's BLOCK_BROADCAST_TYPE): `block` (default) a `new_block` per
   * block, `count` one `new_blocks_count` per batch instead
   */
  readonly live?: { readonly maxTopics?: number; readonly heartbeatMs?: number; readonly maxQueued?: number; readonly blockBroadcast?: BlockBroadcast };
  /**
   * ABIs (JSON, as solc and viem write them) to decode with: transaction input, logs, revert
   * reasons, `method` names and Etherscan's `functionName`, for contracts nobody verified. Tried
   * after the called contract's verified ABI and every verified ABI, before the built-in
   * signature table. Entries that are not functions, events or errors are ignored.
   */
  readonly abis?: readonly (readonly unknown[])[];
}

/** What createExplorer returns: an Explorer that also follows live topics. */
export type LiveExplorer = Explorer & { subscribe(topic: string, handler: (event: LiveEvent) => void, options?: { readonly chainId?: string }): () => void };

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

/** a 503 (the data source failed) says when to retry: soon */
const UNAVAILABLE_HEADERS = { ...JSON_HEADERS, 'retry-after': '1' } as const;

const fromError = (error: ApiError): ExplorerResponse => {
  const { status, body } = errorResponse(error);
  return { status, headers: status === 503 ? UNAVAILABLE_HEADERS : JSON_HEADERS, body: body as JsonValue };
};

/** What answering needs, built once by createExplorer and passed to each step. */
interface ExplorerContext {
  readonly options: CreateExplorerOptions;
  readonly chainIds: string[];
  readonly defaultChain: string;
  /** one runtime per configured chain */
  readonly runtimes: ReadonlyMap<string, ChainRuntime>;
  readonly endpointOf: (name: string) => AnyEndpoint | undefined;
  readonly routes: RouteMatcher<string>;
  readonly cache: ResponseCache;
  readonly render: RenderOptions;
  readonly abis: RenderOptions['abis'];
  readonly now: () => number;
  readonly csvLimit: { readonly csvExportLimit?: number };
  readonly liveCaps: { readonly maxTopics: number; readonly heartbeatMs: number; readonly maxQueued: number };
}

export function createExplorer(options: CreateExplorerOptions): LiveExplorer {
  const chains = chainConfigs(options.chains);
  const chainIds = Object.keys(chains);
  const defaultChain = options.defaultChain ?? chainIds[0];
  if (defaultChain === undefined || chains[defaultChain] === undefined) {
    throw new Error('createExplorer: configure at least one chain, and a defaultChain among them');
  }
  const abis = options.abis === undefined || options.abis.length === 0 ? undefined : indexAbi(options.abis.flat());
  const render: RenderOptions = { ipfsGateway: options.ipfsGateway ?? DEFAULT_IPFS_GATEWAY, ...(abis === undefined ? {} : { abis }) };
  const { endpointOf, routes } = endpointTable(options.endpoints);
  const cache = createResponseCache(options.cache);
  const shared: ChainRuntimeShared = {
    render,
    versioned: cache.enabled,
    poll: { pollMs: options.cache?.versionPollMs, now: options.cache?.now },
    blockBroadcast: options.live?.blockBroadcast ?? 'block',
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  };
  const runtimes = new Map(chainIds.map((id) => [id, createChainRuntime(id, chains[id] as ChainConfig, shared)]));
  const ctx: ExplorerContext = {
    options,
    chainIds,
    defaultChain,
    runtimes,
    endpointOf,
    routes,
    cache,
    render,
    abis,
    now: options.now ?? Date.now,
    csvLimit: options.csvExport?.limit === undefined ? {} : { csvExportLimit: options.csvExport.limit },
    liveCaps: { maxTopics: options.live?.maxTopics ?? 100, heartbeatMs: options.live?.heartbeatMs ?? 15_000, maxQueued: options.live?.maxQueued ?? 1000 },
  };
  return {
    chainIds,
    defaultChain,
    chains,
    routes,
    handle: (request) => handle(ctx, request),
    dispatch: (request) => dispatch(ctx, request),
    rpc: (request) => rpc(ctx, request),
    etherscan: (request) => etherscan(ctx, request),
    sourcify: (request) => sourcify(ctx, request),
    subscribe: (topic, handler, subscribeOptions) => subscribe(ctx, topic, handler, subscribeOptions),
  };
}

/** a data source that fails mid-stream is reported as one that fails before the answer */
async function* reported(ctx: ExplorerContext, chunks: AsyncIterable<string>, request: EndpointRequest): AsyncGenerator<string> {
  try {
    yield* chunks;
  } catch (error) {
    ctx.options.onError?.(error, request);
    throw error;
  }
}

function subscribe(ctx: ExplorerContext, topic: string, handler: (event: LiveEvent) => void, subscribeOptions: { readonly chainId?: string } = {}): () => void {
  const chainId = subscribeOptions.chainId ?? ctx.defaultChain;
  const runtime = ctx.runtimes.get(chainId);
  if (runtime === undefined) throw new Error(`subscribe: unknown chain ${chainId}`);
  const parsed = parseTopic(topic);
  if (typeof parsed === 'string') throw new Error(`subscribe: ${topic}: ${parsed}`);
  const hub = liveHubOf(runtime);
  if (hub === undefined) throw new Error(`subscribe: chain ${chainId} has no change feed (ChainConfig.feed)`);
  return hub.subscribe(topic, handler);
}

async function dispatch(ctx: ExplorerContext, request: EndpointRequest): Promise<ExplorerResponse> {
  const runtime = ctx.runtimes.get(request.chainId);
  if (runtime === undefined) return fromError({ kind: 'NotFound', message: `Unknown chain: ${request.chainId}` });
  const endpoint = ctx.endpointOf(request.endpoint);
  if (endpoint === undefined) return fromError({ kind: 'RouteNotFound' });
  if (request.method !== undefined && !answers(endpoint, request.method)) return fromError({ kind: 'MethodNotAllowed' });
  // a write is never cached, and goes to the primary
  if (endpoint.method !== undefined && endpoint.method !== 'GET') return answer(ctx, runtime, runtime.config, endpoint, request);
  const copy = pickCopy(runtime, request);
  const response = await readAnswer(ctx, runtime, copy, endpoint, request);
  // a read replica that failed to answer is left out by its store from then on: the request
  // is asked once more, of the copy picked now (another replica, or the primary)
  if (response.status !== 503 || copy.config === runtime.config) return response;
  const again = pickCopy(runtime, request);
  return again === copy ? response : readAnswer(ctx, runtime, again, endpoint, request);
}

/** a read, from one copy of the store (its version and its records), through the cache */
async function readAnswer(ctx: ExplorerContext, runtime: ChainRuntime, copy: ChainCopy, endpoint: AnyEndpoint, request: EndpointRequest): Promise<ExplorerResponse> {
  const chain = copy.config;
  // no cache, no version: one statement fewer per request
  const known = copy.version();
  const version = typeof known === 'string' || known === undefined ? known : await known;
  if (version === undefined) return answer(ctx, runtime, chain, endpoint, request);
  // an answer over a time window is kept for the current minute of the clock only
  const key = endpoint.clock === true ? `${requestKey(request)}@${Math.floor(ctx.now() / 60_000)}` : requestKey(request);
  const hit = ctx.cache.get(key, version);
  if (hit !== undefined) return hit;
  const response = await answer(ctx, runtime, chain, endpoint, request);
  // failures of the source (5xx) are not kept; everything else is a function of the data;
  // a streamed answer is read once, by its one client, so it is never kept
  if (response.status < 500 && response.stream === undefined) ctx.cache.set(key, version, response);
  return response;
}

/** the endpoint's answer over one copy of the chain's config (`chain`: the primary's or a replica's) */
async function answer(ctx: ExplorerContext, runtime: ChainRuntime, chain: ChainConfig, endpoint: AnyEndpoint, request: EndpointRequest): Promise<ExplorerResponse> {
  const decoded = decodeRequest(endpoint, request.params, request.query);
  if (E.isLeft(decoded)) return fromError(decoded.left);
  // a route that declares no body reads none
  const input = endpoint.body === undefined ? E.right(undefined) : decodeBody(endpoint.body, request.body);
  if (E.isLeft(input)) return fromError(input.left);
  try {
    const hub = endpoint.produces === 'text/event-stream' ? liveHubOf(runtime) : undefined;
    const live: LiveDeps | undefined = hub === undefined ? undefined : { hub, ...ctx.liveCaps };
    const publish = methodOf(endpoint) === 'POST' && chain.feed !== undefined ? publisherOf(runtime) : undefined;
    const deps = {
      chain,
      ds: chain.store,
      chainId: request.chainId,
      chainIds: ctx.chainIds,
      form: request.form ?? 'instance',
      render: runtime.render,
      now: ctx.now,
      ...ctx.csvLimit,
      ...(live === undefined ? {} : { live }),
      ...(publish === undefined ? {} : { publish }),
    } as const;
    const result = await endpoint.handler(deps)({ ...decoded.right, body: input.right })();
    if (E.isLeft(result)) return fromError(result.left);
    const body = result.right;
    if (body instanceof StreamedBody) {
      return { status: 200, headers: streamedHeaders(body), body: null, stream: reported(ctx, body.chunks, request) };
    }
    return { status: 200, headers: JSON_HEADERS, body };
  } catch (error) {
    ctx.options.onError?.(error, request);
    return fromError({ kind: 'Unavailable', message: 'The data source failed to answer' });
  }
}

async function handle(ctx: ExplorerContext, request: ExplorerRequest): Promise<ExplorerResponse> {
  const method = (request.method ?? 'GET').toUpperCase();
  const path = classifyPath(request.path);
  if (path?.dialect === 'etherscan') {
    const { legacyPath } = path;
    return etherscan(ctx, { chainId: request.chainId ?? path.chainId ?? ctx.defaultChain, query: request.query ?? {}, ...(legacyPath !== undefined ? { legacyPath } : {}) });
  }
  if (path?.dialect !== 'api') return fromError({ kind: 'RouteNotFound' });
  const match = ctx.routes(path.subPath, method, path.api);
  if (match === null) return fromError(ctx.routes.any(path.subPath, path.api).length > 0 ? { kind: 'MethodNotAllowed' } : { kind: 'RouteNotFound' });
  const chainId = request.chainId ?? path.chainId ?? ctx.defaultChain;
  return dispatch(ctx, {
    endpoint: match.endpoint,
    chainId,
    form: path.chainId === undefined ? 'instance' : 'multichain',
    params: match.params,
    query: request.query ?? {},
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
}

async function rpc(ctx: ExplorerContext, request: RpcRequest): Promise<ExplorerResponse> {
  const runtime = ctx.runtimes.get(request.chainId);
  if (runtime === undefined) return fromError({ kind: 'NotFound', message: `Unknown chain: ${request.chainId}` });
  const copy = pickCopy(runtime).config;
  const body = await answerRpc({ chain: copy, ds: copy.store, chainId: request.chainId }, request.body, (error) =>
    ctx.options.onError?.(error, { endpoint: RPC_ENDPOINT, chainId: request.chainId }),
  );
  return { status: 200, headers: JSON_HEADERS, body };
}

async function etherscan(ctx: ExplorerContext, request: EtherscanRequest): Promise<ExplorerResponse> {
  const runtime = ctx.runtimes.get(request.chainId);
  if (runtime === undefined) return { status: 404, headers: JSON_HEADERS, body: { status: '0', message: `Unknown chain: ${request.chainId}`, result: null } };
  const copy = pickCopy(runtime).config;
  const { abis } = ctx;
  const dialect = {
    chain: copy,
    ds: copy.store,
    chainId: request.chainId,
    onError: (error: unknown) => ctx.options.onError?.(error, { endpoint: ETHERSCAN_ENDPOINT, chainId: request.chainId }),
    ...(abis === undefined ? {} : { abis }),
  };
  const query = firstValues(request.query);
  const legacy = request.legacyPath === undefined ? undefined : legacyAction(request.legacyPath);
  if (request.legacyPath !== undefined && legacy === undefined) return { status: 404, headers: JSON_HEADERS, body: { status: '0', message: 'Not found', result: null } };
  const answer = legacy === undefined ? await answerEtherscan(dialect, query) : await answerLegacy(dialect, legacy, query);
  if (answer.text !== undefined) return { status: answer.status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: answer.text };
  return { status: answer.status, headers: JSON_HEADERS, body: answer.body };
}

/** Sourcify's API over every chain's primary copy (its reads follow its writes); a failure of a store is a 503 in its shape, told to onError. */
async function sourcify(ctx: ExplorerContext, request: SourcifyRequest): Promise<ExplorerResponse> {
  const chains = new Map([...ctx.runtimes].map(([id, runtime]) => [id, runtime.config]));
  const onError = (error: unknown): void => ctx.options.onError?.(error, { endpoint: SOURCIFY_ENDPOINT, chainId: ctx.defaultChain });
  const publish = (chainId: string, topic: string, event: string, payload: JsonObject): void => {
    const runtime = ctx.runtimes.get(chainId);
    if (runtime?.config.feed !== undefined) publisherOf(runtime)(topic, event, payload);
  };
  try {
    const answer = await answerSourcify({ chains, now: ctx.now, onError, publish }, request);
    return { status: answer.status, headers: JSON_HEADERS, body: answer.body };
  } catch (error) {
    onError(error);
    return { status: 503, headers: JSON_HEADERS, body: { customCode: 'internal_error', message: 'The data source failed to answer', errorId: crypto.randomUUID() } };
  }
}

/** Whether an endpoint answers a method (HEAD: a GET endpoint). */
function answers(endpoint: AnyEndpoint, method: string): boolean {
  const own = methodOf(endpoint);
  const asked = method.toUpperCase();
  return asked === own || (asked === 'HEAD' && own === 'GET');
}

/**
 * The endpoints by name and the route table: the registry's, and with `extra` a table of its
 * own over both (a name, or a method and template, already taken is refused).
 */
function endpointTable(extra: Readonly<Record<string, AnyEndpoint>> | undefined): {
  readonly endpointOf: (name: string) => AnyEndpoint | undefined;
  readonly routes: RouteMatcher<string>;
} {
  const byName = new Map<string, AnyEndpoint>(ENDPOINT_NAMES.map((name) => [name, endpointByName(name)]));
  if (extra === undefined || Object.keys(extra).length === 0) return { endpointOf: (name) => byName.get(name), routes: matchRoute };
  const taken = new Set(ROUTES.map((r) => `${r.method ?? 'GET'} ${r.template}`));
  const added: Route<string>[] = [];
  for (const [name, endpoint] of Object.entries(extra)) {
    const route = routeOf(name, endpoint);
    const key = `${route.method ?? 'GET'} ${route.template}`;
    if (byName.has(name) || taken.has(key)) throw new Error(`createExplorer: endpoint ${name} (${key}) is already in the route table`);
    byName.set(name, endpoint);
    taken.add(key);
    added.push(route);
  }
  return { endpointOf: (name) => byName.get(name), routes: routeMatcher<string>([...ROUTES, ...added]) };
}

/** One string per parameter (the first of repeated ones), as the dialect reads them. */
function firstValues(query: RawQuery): EtherscanQuery {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    const first = typeof v === 'string' ? v : v?.[0];
    if (first !== undefined) out[k] = first;
  }
  return out;
}
