/**
 * The one route table: path templates under `/api/v2` (in @koa/router syntax) → endpoint.
 * Used by `handle` (lib) and by the Koa host for both the per-instance and the multichain form.
 */
import type { EndpointName, Route } from './api.ts';

export const API_PREFIX = '/api/v2';

export const ROUTES: readonly Route[] = [
  { endpoint: 'addressTokens', template: '/addresses/:address_hash_param/tokens' },
  { endpoint: 'addressTokenBalances', template: '/addresses/:address_hash_param/token-balances' },
  { endpoint: 'addressInternalTransactions', template: '/addresses/:address_hash_param/internal-transactions' },
  { endpoint: 'addressNftCollections', template: '/addresses/:address_hash_param/nft/collections' },
  { endpoint: 'addressBlocksValidated', template: '/addresses/:address_hash_param/blocks-validated' },
  { endpoint: 'transactions', template: '/transactions' },
  { endpoint: 'transaction', template: '/transactions/:transaction_hash_param' },
  { endpoint: 'transactionStateChanges', template: '/transactions/:transaction_hash_param/state-changes' },
  { endpoint: 'transactionLogs', template: '/transactions/:transaction_hash_param/logs' },
  { endpoint: 'internalTransactions', template: '/internal-transactions' },
  { endpoint: 'tokenTransfers', template: '/token-transfers' },
  { endpoint: 'tokenInstances', template: '/tokens/:address_hash_param/instances' },
  { endpoint: 'tokenInstanceTransfers', template: '/tokens/:address_hash_param/instances/:token_id_param/transfers' },
  { endpoint: 'tokenTransfersOfToken', template: '/tokens/:address_hash_param/transfers' },
  { endpoint: 'blocks', template: '/blocks' },
  { endpoint: 'block', template: '/blocks/:block_hash_or_number_param' },
];

export interface RouteMatch {
  readonly endpoint: EndpointName;
  readonly params: Readonly<Record<string, string>>;
}

const compiled = ROUTES.map((route) => {
  const names: string[] = [];
  const pattern = route.template.replace(/:([a-z_]+)/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, names, regex: new RegExp(`^${pattern}/?$`) };
});

/** Match a path below `/api/v2` (e.g. `/transactions/0x…`). */
export function matchRoute(subPath: string): RouteMatch | null {
  for (const { route, names, regex } of compiled) {
    const m = regex.exec(subPath);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      params[name] = safeDecode(m[i + 1] ?? '');
    });
    return { endpoint: route.endpoint, params };
  }
  return null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface ParsedPath {
  /** chain id from `/{chain_id}/api/v2/...`, undefined for the per-instance form */
  readonly chainId: string | undefined;
  /** the part after `/api/v2` */
  readonly subPath: string;
}

/** Split a full path into its chain and the part below `/api/v2`; null when it is neither form. */
export function parsePath(path: string): ParsedPath | null {
  const clean = path.split('?')[0] ?? '';
  if (clean === API_PREFIX || clean.startsWith(`${API_PREFIX}/`)) {
    return { chainId: undefined, subPath: clean.slice(API_PREFIX.length) || '/' };
  }
  const m = /^\/([^/]+)(\/api\/v2(?:\/.*)?)$/.exec(clean);
  if (!m) return null;
  return { chainId: safeDecode(m[1] ?? ''), subPath: (m[2] ?? '').slice(API_PREFIX.length) || '/' };
}
