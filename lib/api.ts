/**
 * The public request/response values of the core. The host turns HTTP into an
 * `EndpointRequest` (or a raw `ExplorerRequest`) and writes the `ExplorerResponse` back.
 */
import type { ChainConfig, ChainSetting } from './chain-config.ts';
import type { LiveEvent } from './live/events.ts';
import type { EndpointName, ServiceName } from './endpoints/names.ts';
import type { JsonValue } from './json.ts';
import type { ApiVersion } from './paths.ts';
import type { ApiForm, HttpMethod, RawQuery, RequestBody, UploadedFile } from './request.ts';
import type { Route, RouteMatcher } from './routes.ts';

export interface ExplorerResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** bigints are exact JSON numbers: serialise with `toJson` from lib; null when `stream` is set */
  readonly body: JsonValue;
  /**
   * A streamed body (the CSV exports): write these chunks in order, as they come, after the
   * status and headers; `body` is then null. Read it once. A failure while it is read (the
   * status is already sent) throws from the iteration: end the response there.
   */
  readonly stream?: AsyncIterable<string>;
}

/** A request by path: `/api/v2/...` (default chain) or `/{chain_id}/api/v2/...`. */
export interface ExplorerRequest {
  readonly path: string;
  readonly query?: RawQuery;
  /** overrides the chain implied by the path */
  readonly chainId?: string;
  /** default GET (HEAD is answered as GET); a path known under other methods only is 405 */
  readonly method?: string;
  /** read by routes that declare a body (never by a GET route) */
  readonly body?: RequestBody;
}

/** A request already routed: the host's router matched `endpoint` and extracted `params`. */
export interface EndpointRequest {
  /** a registry name, or one added with `createExplorer({ endpoints })` (unknown: 404) */
  readonly endpoint: EndpointName | (string & {});
  /** default: the endpoint's own; another one is 405 (HEAD is a GET) */
  readonly method?: string;
  /** read only when the endpoint declares a body */
  readonly body?: RequestBody;
  readonly chainId: string;
  /** default 'instance' */
  readonly form?: ApiForm;
  readonly params: Readonly<Record<string, string>>;
  readonly query: RawQuery;
}

// the leaves, re-exported: the request values, the endpoint and service names, where the API is
export type { ApiForm, ApiVersion, EndpointName, HttpMethod, RawQuery, RequestBody, Route, ServiceName, UploadedFile };
export { CONFIG_ENDPOINT, ETHERSCAN_ENDPOINT, RPC_ENDPOINT } from './endpoints/names.ts';
export { API_PREFIX, apiPrefix } from './paths.ts';

/** A JSON-RPC request to one chain: the body as parsed JSON (undefined when it was not JSON). */
export interface RpcRequest {
  readonly chainId: string;
  readonly body: unknown;
}

/**
 * A request in the Etherscan-compatible dialect to one chain: its parameters (query string and
 * form body merged) and, for a legacy path, that path below `/api` (e.g. `/legacy/logs/get-logs`).
 */
export interface EtherscanRequest {
  readonly chainId: string;
  readonly query: RawQuery;
  readonly legacyPath?: string;
}

/** A request to Sourcify's API: the method, the path below the mount prefix, the query, a POST's body as sent. */
export type { SourcifyRequest } from './sourcify/index.ts';
import type { SourcifyRequest } from './sourcify/index.ts';

/** What `onError` hears about the request whose data source failed. */
export interface FailedRequest {
  /** a service, or the name of an endpoint added with `createExplorer({ endpoints })` */
  readonly endpoint: ServiceName | (string & {});
  readonly chainId: string;
}

export interface ExplorerOptions {
  /**
   * one config per chain id (strings, as in `/{chain_id}/api/v2`): `{ store, node? }`; a bare
   * DataSource stands for `{ store }`
   */
  readonly chains: Readonly<Record<string, ChainSetting>>;
  /** the chain served by the per-instance form `/api/v2/...`; defaults to the first chain */
  readonly defaultChain?: string;
}

/** What `createExplorer` returns. */
export interface Explorer {
  /** configured chain ids */
  readonly chainIds: readonly string[];
  /** the chain of the per-instance form */
  readonly defaultChain: string;
  /** each chain's config, as given (a bare DataSource became `{ store }`) */
  readonly chains?: Readonly<Record<string, ChainConfig>>;
  /**
   * the route table below `/api/v2`, keyed by method and template: the registry's routes and
   * those added with `createExplorer({ endpoints })` (absent: the registry's, `matchRoute`)
   */
  readonly routes?: RouteMatcher<string>;
  /** answer a request by path (both forms); never throws */
  handle(request: ExplorerRequest): Promise<ExplorerResponse>;
  /** answer a routed request; unknown chain → 404; never throws */
  dispatch(request: EndpointRequest): Promise<ExplorerResponse>;
  /**
   * answer a JSON-RPC 2.0 body (one call or a batch) from the chain's store (and node): always
   * 200 with JSON-RPC responses, errors as error objects; unknown chain → 404; never throws
   */
  rpc(request: RpcRequest): Promise<ExplorerResponse>;
  /**
   * answer the Etherscan-compatible dialect (`/api?module=…&action=…`, the legacy paths): the
   * envelope `{status, message, result}`, HTTP 200 for nearly every outcome; unknown chain → 404; never throws
   */
  etherscan(request: EtherscanRequest): Promise<ExplorerResponse>;
  /**
   * answer Sourcify's API (API v2's `/v2/verify/…`, `/v2/contract/…`, `/v2/contracts/…` and the
   * legacy `/check-all-by-addresses`, `POST /`) for every chain served (lib/sourcify/): Sourcify's
   * statuses and bodies, its error shapes; never throws
   */
  sourcify?(request: SourcifyRequest): Promise<ExplorerResponse>;
  /**
   * Follow a live topic (Blockscout's: `blocks:new_block`, `transactions:new_transaction`,
   * `addresses:{hash}`, `tokens:{hash}`, …) of a chain with a change feed: `handler` gets each
   * event (`{topic, event, payload, version}`, payloads as the API renders them) once, in order.
   * Returns the unsubscribe function. Throws on a topic that cannot be joined (Blockscout's
   * reason), an unknown chain, or a chain without a feed.
   */
  subscribe?(topic: string, handler: (event: LiveEvent) => void, options?: { readonly chainId?: string }): () => void;
}
