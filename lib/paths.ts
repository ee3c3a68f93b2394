/**
 * Where the host answers — a leaf: it imports nothing, so the route table, the gateway's config,
 * the classifier and the OpenAPI document share these paths without importing each other.
 */

/** Where both forms put the API: `/api/v2/...` and `/{chain_id}/api/v2/...`. */
export const API_PREFIX = '/api/v2';

/**
 * The API version a route is below: `v2` (every endpoint but one) or `v1` — the official
 * documents' `/api/v1/search`, which Blockscout keeps as the v1 path of its v2 search.
 */
export type ApiVersion = 'v1' | 'v2';

/** `/api/v2`, or `/api/v1` for a v1 route. */
export const apiPrefix = (api: ApiVersion = 'v2'): string => (api === 'v1' ? '/api/v1' : API_PREFIX);

/** Where the multichain form answers JSON-RPC, below `/{chain_id}`; the per-instance form's path. */
export const MULTICHAIN_RPC_PATH = '/json-rpc';
export const INSTANCE_RPC_PATH = '/api/eth-rpc';
/** The multichain gateway's config (lib/gateway/config.ts). */
export const CONFIG_PATH = '/api/json/config';
