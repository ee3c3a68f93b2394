/**
 * Typed library calls, derived from the endpoint codecs: one function per endpoint whose
 * path-parameter and query names are checked at compile time.
 *
 *   const api = explorerClient(explorer);
 *   await api.addressTokens({ address_hash_param: '0x…' }, { type: 'ERC-20' });
 */
import type { Explorer, ExplorerResponse } from './api.ts';
import { ENDPOINTS } from './endpoints/index.ts';

type Endpoints = typeof ENDPOINTS;
type PathOf<N extends keyof Endpoints> = { readonly [K in keyof Endpoints[N]['path']]: string };
type QueryOf<N extends keyof Endpoints> = { readonly [K in keyof Endpoints[N]['query'] | 'apikey' | 'key']?: string };

export type ExplorerClient = {
  readonly [N in keyof Endpoints]: (path: PathOf<N>, query?: QueryOf<N>) => Promise<ExplorerResponse>;
};

export function explorerClient(explorer: Explorer, chainId: string = explorer.defaultChain): ExplorerClient {
  const client: Record<string, (path: Readonly<Record<string, string>>, query?: Readonly<Record<string, string | undefined>>) => Promise<ExplorerResponse>> = {};
  for (const name of Object.keys(ENDPOINTS) as (keyof Endpoints)[]) {
    client[name] = (path, query = {}) => explorer.dispatch({ endpoint: name, chainId, form: 'instance', params: path, query });
  }
  return client as unknown as ExplorerClient;
}
