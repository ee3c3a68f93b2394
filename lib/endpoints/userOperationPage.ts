/**
 * What the account-abstraction lists share (Blockscout's user-ops-indexer's conventions):
 * `page_size` 1..50 (default 50), the page token — the sort key of the first row of the next
 * page, comma-separated, applied inclusively — and its errors, 400 or 404 in the service's
 * body `{code, message}` (gRPC codes 3 and 5).
 */
import type { ApiError } from '../errors.ts';
import { anyString, integer } from '../params/codecs.ts';
import { itemsCount } from '../paging/page.ts';

export const DEFAULT_PAGE_SIZE = 50;
/** Blockscout checks `page_size` 1..50 before it asks the service */
export const pageSizeParam = integer({ min: 1, max: 50 });

/**
 * The paging parameters of a service list: `page_size`, `page_token`, and the Pro API's
 * `items_count` (declared there on these paths; accepted, never a 422, the page size being
 * `page_size`'s).
 */
export const SERVICE_PAGE_QUERY = { page_size: pageSizeParam, page_token: anyString, items_count: itemsCount } as const;

/** 404 `{code: 5, message: "<what> not found"}` */
export const userOperationNotFound = (what: string): ApiError => ({ kind: 'ServiceError', status: 404, code: 5, message: `${what} not found` });

/** 400 `{code: 3, ...}` of a page token that does not parse */
const badToken = (token: string, why: string): ApiError => ({ kind: 'ServiceError', status: 400, code: 3, message: `invalid format '${token}' for page_token: ${why}` });

export type TokenPart = 'integer' | 'hash' | 'address';
const PART_RE: Readonly<Record<TokenPart, RegExp>> = { integer: /^(0|[1-9][0-9]{0,15})$/, hash: /^0x[0-9a-fA-F]{64}$/, address: /^0x[0-9a-fA-F]{40}$/ };

/** The token's parts checked against `parts` (hashes and addresses lower-cased), or its 400. */
export function parseToken(token: string, parts: readonly TokenPart[]): { readonly ok: readonly string[] } | { readonly error: ApiError } {
  const values = token.split(',');
  if (values.length !== parts.length) return { error: badToken(token, `invalid format, expected ${parts.length} comma-separated values`) };
  const out: string[] = [];
  for (const [i, kind] of parts.entries()) {
    const v = values[i] ?? '';
    // Blockscout's service names part #0 whichever part fails
    if (!PART_RE[kind].test(v) || (kind === 'integer' && !Number.isSafeInteger(Number(v)))) return { error: badToken(token, `invalid format '${v}' in part #0`) };
    out.push(kind === 'integer' ? v : v.toLowerCase());
  }
  return { ok: out };
}

/** `next_page_params` of a service list: the token of the row after the page, or null. */
export const nextPageParams = (token: string | null, pageSize: number): { page_token: string; page_size: number } | null =>
  token === null ? null : { page_token: token, page_size: pageSize };
