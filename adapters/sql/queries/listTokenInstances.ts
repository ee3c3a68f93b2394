/** listTokenInstances: instances of a token, or those a holder holds (owned ERC-721 ids and positive balances, merged). */
import type { HeldTokenInstance, Page, TokenInstanceCursor, TokenInstanceFilter } from '../../../lib/ports.ts';
import { asRows, big } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { cmpBig, pageSize } from './seek.ts';
import { balanceOf, getTokenInstances } from './instances.ts';

export async function listTokenInstances(c: SqlContext, filter: TokenInstanceFilter, page: Page<TokenInstanceCursor>): Promise<readonly HeldTokenInstance[]> {
  const { knex, d } = c;
  const noId = d.idKey(null);
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const { tokenAddress, holder } = filter;
  const up = page.order === 'asc';
  const op = up ? '>' : '<';
  const idOrder = up ? 'asc' : 'desc';
  let cursor = page.after === null ? null : d.probe(page.after.tokenId);
  if (holder === undefined) {
    let q = knex('token_instances').select('token_id').where('token_address', tokenAddress);
    if (cursor !== null) q = q.andWhere('token_id', op, cursor);
    const ids = asRows(await q.orderBy('token_id', idOrder).limit(n)).map((r) => big(r, 'token_id'));
    const found = await getTokenInstances(c, ids.map((tokenId) => ({ tokenAddress, tokenId })));
    return found.map((instance) => ({ instance, value: null }));
  }
  // candidates: ERC-721 ids the holder owns by transfers, and ids it has a positive balance of;
  // the instance's type then decides which test applies (memory adapter semantics)
  const out: HeldTokenInstance[] = [];
  const batch = Math.max(n, 16);
  /** `a` comes no later than `b` in the page's order */
  const notAfter = (a: bigint, b: bigint) => (up ? a <= b : a >= b);
  for (;;) {
    let owned = knex('nft_owners').select('token_id').where({ owner: holder, token_address: tokenAddress, token_type: 'ERC-721' });
    // (value > 0 is checked below: as a SQL term it would steer SQLite off the primary key)
    let balances = knex('current_token_balances').select('token_id', 'value').where({ holder, token_address: tokenAddress }).andWhere('token_id', '<>', noId);
    if (cursor !== null) {
      owned = owned.andWhere('token_id', op, cursor);
      balances = balances.andWhere('token_id', op, cursor);
    }
    const ownedRows = asRows(await owned.orderBy('token_id', idOrder).limit(batch));
    const balanceRows = asRows(await balances.orderBy('token_id', idOrder).limit(batch));
    const value = new Map<bigint, bigint>();
    for (const r of balanceRows) if (big(r, 'value') > 0n) value.set(big(r, 'token_id'), big(r, 'value'));
    const ids = [...new Set([...ownedRows.map((r) => big(r, 'token_id')), ...value.keys()])].sort((a, b) => (up ? cmpBig(a, b) : cmpBig(b, a)));
    // both seeks are complete up to the earlier (in page order) of their last ids
    const ends = [ownedRows, balanceRows].filter((rs) => rs.length === batch).map((rs) => big(rs[rs.length - 1], 'token_id'));
    const bound = ends.length === 0 ? null : ends.reduce((a, b) => (notAfter(a, b) ? a : b));
    const safe = bound === null ? ids : ids.filter((id) => notAfter(id, bound));
    const instances = await getTokenInstances(c, safe.map((tokenId) => ({ tokenAddress, tokenId })));
    const byId = new Map(instances.map((i) => [i.tokenId, i]));
    for (const id of safe) {
      const instance = byId.get(id);
      if (instance === undefined) continue;
      if (instance.tokenType === 'ERC-721') {
        if (instance.owner === holder) out.push({ instance, value: 1n });
      } else {
        const v = value.get(id) ?? (await balanceOf(c, holder, tokenAddress, id));
        if (v > 0n) out.push({ instance, value: v });
      }
      if (out.length >= n) return out;
    }
    if (bound === null || safe.length === 0) return out;
    cursor = d.key(bound);
  }
}
