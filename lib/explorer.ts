/**
 * createExplorer: the core's public entry. `handle` answers a request by path (both forms),
 * `dispatch` a request the host already routed. Neither throws: every failure is a response.
 */
import * as E from 'fp-ts/lib/Either.js';
import type {
  EndpointName,
  EndpointRequest,
  EtherscanRequest,
  Explorer,
  ExplorerOptions,
  ExplorerRequest,
  ExplorerResponse,
  FailedRequest,
  RawQuery,
  RpcRequest,
} from './api.ts';
import { ETHERSCAN_ENDPOINT, RPC_ENDPOINT } from './api.ts';
import type { ResponseCacheOptions } from './cache.ts';
import { createResponseCache, requestKey } from './cache.ts';
import type { ReadDataVersion } from './data-version.ts';
import { createVersionReader } from './data-version.ts';
import { endpointByName } from './endpoints/index.ts';
import type { EtherscanQuery } from './etherscan/index.ts';
import { answerEtherscan, answerLegacy, legacyAction, parseEtherscanPath } from './etherscan/index.ts';
import type { ApiError } from './errors.ts';
import { errorResponse } from './errors.ts';
import type { JsonValue } from './json.ts';
import { decodeRequest } from './params/decode.ts';
import type { DataSource } from './ports.ts';
import type { RenderOptions } from './render/context.ts';
import { answerRpc } from './rpc/index.ts';
import { matchRoute, parsePath } from './routes.ts';
import { StreamedBody, streamedHeaders } from './streamed.ts';

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
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

const fromError = (error: ApiError): ExplorerResponse => {
  const { status, body } = errorResponse(error);
  return { status, headers: JSON_HEADERS, body: body as JsonValue };
};

export function createExplorer(options: CreateExplorerOptions): Explorer {
  const chainIds = Object.keys(options.chains);
  const defaultChain = options.defaultChain ?? chainIds[0];
  if (defaultChain === undefined || options.chains[defaultChain] === undefined) {
    throw new Error('createExplorer: configure at least one chain, and a defaultChain among them');
  }
  const render: RenderOptions = { ipfsGateway: options.ipfsGateway ?? DEFAULT_IPFS_GATEWAY };
  const now = options.now ?? Date.now;
  const sourceOf = (chainId: string): DataSource | undefined =>
    Object.prototype.hasOwnProperty.call(options.chains, chainId) ? options.chains[chainId] : undefined;

  const cache = createResponseCache(options.cache);
  const csvLimit = options.csvExport?.limit === undefined ? {} : { csvExportLimit: options.csvExport.limit };
  /** a data source that fails mid-stream is reported as one that fails before the answer */
  async function* reported(chunks: AsyncIterable<string>, request: EndpointRequest): AsyncGenerator<string> {
    try {
      yield* chunks;
    } catch (error) {
      options.onError?.(error, request);
      throw error;
    }
  }
  const unversioned: ReadDataVersion = () => undefined;
  // one reader per chain: the poll interval and the in-flight poll are per store
  const versionReaders = new Map<string, ReadDataVersion>(
    chainIds.map((id) => [
      id,
      cache.enabled ? createVersionReader(options.chains[id] as DataSource, { pollMs: options.cache?.versionPollMs, now: options.cache?.now }) : unversioned,
    ]),
  );

  async function dispatch(request: EndpointRequest): Promise<ExplorerResponse> {
    const ds = sourceOf(request.chainId);
    if (ds === undefined) return fromError({ kind: 'NotFound', message: `Unknown chain: ${request.chainId}` });
    // no cache, no version: one statement fewer per request
    const known = (versionReaders.get(request.chainId) ?? unversioned)();
    const version = typeof known === 'string' || known === undefined ? known : await known;
    if (version === undefined) return answer(ds, request);
    // an answer over a time window is kept for the current minute of the clock only
    const key = endpointByName(request.endpoint).clock === true ? `${requestKey(request)}@${Math.floor(now() / 60_000)}` : requestKey(request);
    const hit = cache.get(key, version);
    if (hit !== undefined) return hit;
    const response = await answer(ds, request);
    // failures of the source (5xx) are not kept; everything else is a function of the data;
    // a streamed answer is read once, by its one client, so it is never kept
    if (response.status < 500 && response.stream === undefined) cache.set(key, version, response);
    return response;
  }

  async function answer(ds: DataSource, request: EndpointRequest): Promise<ExplorerResponse> {
    const endpoint = endpointByName(request.endpoint);
    const decoded = decodeRequest(endpoint, request.params, request.query);
    if (E.isLeft(decoded)) return fromError(decoded.left);
    try {
      const deps = { ds, chainId: request.chainId, chainIds, form: request.form ?? 'instance', render, now, ...csvLimit } as const;
      const result = await endpoint.handler(deps)(decoded.right)();
      if (E.isLeft(result)) return fromError(result.left);
      const body = result.right;
      if (body instanceof StreamedBody) {
        return { status: 200, headers: streamedHeaders(body), body: null, stream: reported(body.chunks, request) };
      }
      return { status: 200, headers: JSON_HEADERS, body };
    } catch (error) {
      options.onError?.(error, request);
      return fromError({ kind: 'Unavailable', message: 'The data source failed to answer' });
    }
  }

  async function handle(request: ExplorerRequest): Promise<ExplorerResponse> {
    const method = (request.method ?? 'GET').toUpperCase();
    const dialect = parseEtherscanPath(request.path);
    if (dialect !== null) {
      const legacyPath = dialect.legacy === undefined ? undefined : request.path.split('?')[0]?.replace(/^.*?\/api(?=\/)/i, '');
      return etherscan({ chainId: request.chainId ?? dialect.chainId ?? defaultChain, query: request.query ?? {}, ...(legacyPath !== undefined ? { legacyPath } : {}) });
    }
    const parsed = parsePath(request.path);
    const match = parsed === null ? null : matchRoute(parsed.subPath, parsed.api);
    if (parsed === null || match === null) return fromError({ kind: 'RouteNotFound' });
    if (method !== 'GET' && method !== 'HEAD') return fromError({ kind: 'MethodNotAllowed' });
    const chainId = request.chainId ?? parsed.chainId ?? defaultChain;
    return dispatch({
      endpoint: match.endpoint,
      chainId,
      form: parsed.chainId === undefined ? 'instance' : 'multichain',
      params: match.params,
      query: request.query ?? {},
    });
  }

  async function rpc(request: RpcRequest): Promise<ExplorerResponse> {
    const ds = sourceOf(request.chainId);
    if (ds === undefined) return fromError({ kind: 'NotFound', message: `Unknown chain: ${request.chainId}` });
    const node = options.nodes !== undefined && Object.prototype.hasOwnProperty.call(options.nodes, request.chainId) ? options.nodes[request.chainId] : undefined;
    const body = await answerRpc({ ds, chainId: request.chainId, ...(node !== undefined ? { node } : {}) }, request.body, (error) =>
      options.onError?.(error, { endpoint: RPC_ENDPOINT, chainId: request.chainId }),
    );
    return { status: 200, headers: JSON_HEADERS, body };
  }

  async function etherscan(request: EtherscanRequest): Promise<ExplorerResponse> {
    const ds = sourceOf(request.chainId);
    if (ds === undefined) return { status: 404, headers: JSON_HEADERS, body: { status: '0', message: `Unknown chain: ${request.chainId}`, result: null } };
    const node = options.nodes !== undefined && Object.prototype.hasOwnProperty.call(options.nodes, request.chainId) ? options.nodes[request.chainId] : undefined;
    const ctx = {
      ds,
      chainId: request.chainId,
      ...(node !== undefined ? { node } : {}),
      onError: (error: unknown) => options.onError?.(error, { endpoint: ETHERSCAN_ENDPOINT, chainId: request.chainId }),
    };
    const query = firstValues(request.query);
    const legacy = request.legacyPath === undefined ? undefined : legacyAction(request.legacyPath);
    if (request.legacyPath !== undefined && legacy === undefined) return { status: 404, headers: JSON_HEADERS, body: { status: '0', message: 'Not found', result: null } };
    const answer = legacy === undefined ? await answerEtherscan(ctx, query) : await answerLegacy(ctx, legacy, query);
    if (answer.text !== undefined) return { status: answer.status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: answer.text };
    return { status: answer.status, headers: JSON_HEADERS, body: answer.body };
  }

  return { chainIds, defaultChain, handle, dispatch, rpc, etherscan };
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

/** Typed library calls: `call(explorer, 'blocks', { query: { type: 'block' } })`. */
export function call(
  explorer: Explorer,
  endpoint: EndpointName,
  request: { readonly params?: Readonly<Record<string, string>>; readonly query?: RawQuery; readonly chainId?: string } = {},
): Promise<ExplorerResponse> {
  return explorer.dispatch({
    endpoint,
    chainId: request.chainId ?? explorer.defaultChain,
    params: request.params ?? {},
    query: request.query ?? {},
  });
}
