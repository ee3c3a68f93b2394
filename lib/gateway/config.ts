/**
 * The multichain gateway's `GET /api/json/config`: which chains exist and where their explorer
 * API lives, plus what each endpoint costs in credits.
 *
 *   {"chains": {"<chain_id>": "<base URL>"},
 *    "credits": {"default": 1, "endpoints": {"GET /api/v2/blocks": 1, ..., "POST /json-rpc": 1},
 *                "batch": "per_call"}}
 *
 * A chain's base URL is the public URL of the host (and prefix) followed by `/<chain_id>`: below
 * it, `/api/v2/...` (the API v2), `/json-rpc` (the JSON-RPC subset) and `/api?module=…` (the
 * Etherscan-compatible dialect). Endpoint paths in
 * `credits.endpoints` are below that base; a JSON-RPC batch costs its cost once per call.
 */
import { methodOf } from '../endpoints/endpoint.ts';
import { ENDPOINT_NAMES, ENDPOINTS } from '../endpoints/index.ts';
import type { ServiceName } from '../endpoints/names.ts';
import { CONFIG_ENDPOINT, ETHERSCAN_ENDPOINT, RPC_ENDPOINT } from '../endpoints/names.ts';
import type { JsonObject } from '../json.ts';
import { apiPrefix, CONFIG_PATH, MULTICHAIN_RPC_PATH } from '../paths.ts';

export interface GatewayConfigOptions {
  readonly chainIds: readonly string[];
  /** the public URL of the host including any prefix, e.g. `https://api.example.com/explorer` */
  readonly baseUrl: string;
  /** credits per endpoint (default `defaultCost`) */
  readonly costs?: Partial<Readonly<Record<ServiceName, number>>>;
  /** default 1 */
  readonly defaultCost?: number;
}

export interface GatewayConfig extends JsonObject {
  readonly chains: Readonly<Record<string, string>>;
  readonly credits: {
    readonly default: number;
    readonly endpoints: Readonly<Record<string, number>>;
    readonly batch: 'per_call';
  };
}

export function gatewayConfig(options: GatewayConfigOptions): GatewayConfig {
  const base = options.baseUrl.replace(/\/+$/, '');
  const fallback = options.defaultCost ?? 1;
  const cost = (name: ServiceName): number => options.costs?.[name] ?? fallback;
  const endpoints: Record<string, number> = {};
  for (const name of ENDPOINT_NAMES) endpoints[`${methodOf(ENDPOINTS[name])} ${apiPrefix(ENDPOINTS[name].api)}${ENDPOINTS[name].route}`] = cost(name);
  endpoints[`POST ${MULTICHAIN_RPC_PATH}`] = cost(RPC_ENDPOINT);
  endpoints[`GET ${CONFIG_PATH}`] = cost(CONFIG_ENDPOINT);
  // the Etherscan-compatible dialect (and its legacy paths), one cost per request
  endpoints['GET /api'] = cost(ETHERSCAN_ENDPOINT);
  return {
    chains: Object.fromEntries(options.chainIds.map((id) => [id, `${base}/${encodeURIComponent(id)}`])),
    credits: { default: fallback, endpoints, batch: 'per_call' },
  };
}
