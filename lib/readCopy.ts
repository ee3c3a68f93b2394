/**
 * Which copy of a chain's store a request reads, for a store on read replicas
 * (DataSource.replicas): the block the request names, so that a page cursor made on a copy that
 * was ahead is followed on a copy that holds the rows below it.
 */
import type { EndpointRequest } from './api.ts';
import type { RawQuery } from './request.ts';
import type { DataSource } from './ports.ts';

const DECIMAL = /^\d{1,15}$/;

const last = (v: RawQuery[string]): string | undefined => (typeof v === 'string' ? v : v?.[v.length - 1]);

/**
 * The block a request names: a cursor's (or filter's) `block_number`, or a block path's number
 * (`/blocks/{n}`, and what hangs below it); undefined when it names none.
 */
export function namedBlock(request: Pick<EndpointRequest, 'params' | 'query'>): number | undefined {
  const query = last(request.query['block_number']);
  if (query !== undefined && DECIMAL.test(query)) return Number(query);
  const path = request.params['block_hash_or_number_param'];
  if (path !== undefined && DECIMAL.test(path)) return Number(path);
  return undefined;
}

/** The copy of `store` one request reads: a replica the store picks, or the store itself. */
export function readCopy(store: DataSource, request?: Pick<EndpointRequest, 'params' | 'query'>): DataSource {
  const replicas = store.replicas;
  if (replicas === undefined) return store;
  return replicas.pick(request === undefined ? undefined : namedBlock(request));
}
