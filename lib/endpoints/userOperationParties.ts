/**
 * What the bundler, paymaster and factory endpoints share: a role's parties with their kept
 * counts (lib/ports/userOperations.ts UserOperationParty), listed (count DESC, address DESC) —
 * the count being total_bundles for bundlers (as Blockscout orders them), total_ops for
 * paymasters and the accounts created for factories — with the page token
 * `"<count>,<checksummed address>"` of the next page's first party (inclusive); or one party by
 * address (404 `{code: 5, message: "<role> not found"}` when no operation names it).
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Either } from 'fp-ts/lib/Either.js';
import type { Address } from '../domain/records.ts';
import type { ApiError } from '../errors.ts';
import type { DataSource, UserOperationParty, UserOperationPartyCursor, UserOperationRole } from '../ports.ts';
import type { RenderContext, RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { checksum } from '../render/format.ts';
import { DEFAULT_PAGE_SIZE, nextPageParams, parseToken, userOperationNotFound } from './userOperationPage.ts';

const MAX_ADDRESS = (1n << 160n) - 1n;

/** the count a role's parties are ordered by */
export const partyCount = (p: UserOperationParty): number => (p.role === 'bundler' ? p.totalBundles : p.totalOps);

/** the cursor whose strict "past" starts at (count, address) itself: the token is inclusive */
function inclusiveCursor(count: number, address: Address): UserOperationPartyCursor {
  const n = BigInt(address);
  if (n === MAX_ADDRESS) return { count: count + 1, address: `0x${'0'.repeat(40)}` as Address };
  return { count, address: `0x${(n + 1n).toString(16).padStart(40, '0')}` as Address };
}

export interface PartyQuery {
  readonly page_size?: number;
  readonly page_token?: string;
}

/** One page of a role's parties, each rendered by `render`. */
export async function partyPage<J>(
  ds: DataSource,
  options: RenderOptions,
  role: UserOperationRole,
  query: PartyQuery,
  render: (p: UserOperationParty, ctx: RenderContext) => J,
): Promise<Either<ApiError, { items: J[]; next_page_params: { page_token: string; page_size: number } | null }>> {
  const size = query.page_size ?? DEFAULT_PAGE_SIZE;
  let after: UserOperationPartyCursor | null = null;
  if (query.page_token !== undefined) {
    const parsed = parseToken(query.page_token, ['integer', 'address']);
    if ('error' in parsed) return E.left(parsed.error);
    after = inclusiveCursor(Number(parsed.ok[0]), parsed.ok[1] as Address);
  }
  if (ds.listUserOperationParties === undefined) return E.right({ items: [], next_page_params: null });
  const rows = await ds.listUserOperationParties(role, { after, limit: size + 1, order: 'desc' });
  const page = rows.slice(0, size);
  const next = rows[size];
  const ctx = await loadContext(ds, { addresses: page.map((p) => p.address) }, options);
  return E.right({
    items: page.map((p) => render(p, ctx)),
    next_page_params: nextPageParams(next === undefined ? null : `${partyCount(next)},${checksum(next.address)}`, size),
  });
}

/** One party of a role by address, rendered; 404 in the service's body when no operation names it. */
export async function partyOne<J>(
  ds: DataSource,
  options: RenderOptions,
  role: UserOperationRole,
  address: Address,
  render: (p: UserOperationParty, ctx: RenderContext) => J,
): Promise<Either<ApiError, J>> {
  const [party] = ds.getUserOperationParties === undefined ? [] : await ds.getUserOperationParties(role, [address]);
  if (party === undefined) return E.left(userOperationNotFound(role === 'sender' ? 'account' : role));
  const ctx = await loadContext(ds, { addresses: [party.address] }, options);
  return E.right(render(party, ctx));
}
