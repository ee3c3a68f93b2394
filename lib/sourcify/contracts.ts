/**
 * `GET /v2/contracts/{chainId}`: the chain's verified contracts as Sourcify pages them — by
 * `matchId` (the contract store's id), `sort` desc (default) or asc, `limit` 1–200 (default 200),
 * `afterMatchId` the cursor (the last `matchId` of the page before); no page object. Each at the
 * address it was first verified at.
 */
import type { SourcifyAnswer, SourcifyContext } from './answer.ts';
import { chainOf, contractObject, isoSeconds, queryParam, v2Error } from './answer.ts';
import type { RawQuery } from '../request.ts';
import { unknownParam } from './query.ts';

export const MAX_LIMIT = 200;

export async function contracts(ctx: SourcifyContext, chainId: string, query: RawQuery): Promise<SourcifyAnswer> {
  const chain = chainOf(ctx, chainId);
  if ('error' in chain) return chain.error;
  const unknown = unknownParam(query, ['sort', 'limit', 'afterMatchId']);
  if (unknown !== undefined) return v2Error(400, 'invalid_parameter', `Unknown query parameter: ${unknown}`);
  const sort = queryParam(query, 'sort') ?? 'desc';
  if (sort !== 'asc' && sort !== 'desc') return v2Error(400, 'invalid_parameter', 'sort must be asc or desc');
  const limitText = queryParam(query, 'limit') ?? String(MAX_LIMIT);
  const limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) return v2Error(400, 'invalid_parameter', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  const after = queryParam(query, 'afterMatchId');
  if (after !== undefined && !/^\d{1,15}$/.test(after)) return v2Error(400, 'invalid_parameter', 'afterMatchId must be a matchId');
  const store = chain.chain.contracts;
  if (store === undefined) return { status: 200, body: { results: [] } };
  const page = await store.listVerified({}, { afterId: after === undefined ? null : Number(after), limit, order: sort });
  const results = page.map((c) => ({ ...contractObject(chainId, c.address, c), verifiedAt: isoSeconds(c.verifiedAt), matchId: String(c.id) }));
  return { status: 200, body: { results } };
}
