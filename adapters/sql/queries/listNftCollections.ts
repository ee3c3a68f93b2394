/** listNftCollections: collections per type rank, then their highest held ids. */
import type { Address, NftTokenType } from '../../../lib/domain/records.ts';
import { NFT_TOKEN_TYPES } from '../../../lib/domain/records.ts';
import type { NftCollectionCursor, NftCollectionFilter, NftCollectionRecord, Page } from '../../../lib/ports.ts';
import { asRows, big, address } from '../rows.ts';
import { keyCondition } from '../sql.ts';
import type { SqlContext } from './context.ts';
import { cmpBig, pageSize } from './seek.ts';

export async function listNftCollections(c: SqlContext, filter: NftCollectionFilter, page: Page<NftCollectionCursor>): Promise<readonly NftCollectionRecord[]> {
  const { knex, d } = c;
  const zero = d.key(0n);
  const noId = d.idKey(null);
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const at = page.after;
  const shown = pageSize(filter.holdings);
  const wanted = new Set<NftTokenType>(filter.types);
  // 'desc': type rank DESC, token address DESC; 'asc' the reverse
  const up = page.order === 'asc';
  const out: NftCollectionRecord[] = [];
  for (const type of up ? NFT_TOKEN_TYPES : [...NFT_TOKEN_TYPES].reverse()) {
    if (out.length >= n) break;
    if (!wanted.has(type)) continue;
    const rank = NFT_TOKEN_TYPES.indexOf(type);
    if (at !== null) {
      const cursorRank = NFT_TOKEN_TYPES.indexOf(at.tokenType);
      if (up ? rank < cursorRank : rank > cursorRank) continue;
    }
    const after = at !== null && at.tokenType === type ? at.tokenAddress : null;
    const room = n - out.length;
    // rows of NFT types in current_token_balances all have value > 0 (only ERC-7984 keeps zeros)
    let q = knex('current_token_balances').where({ holder: filter.holder, token_type: type });
    if (after !== null) q = q.andWhere('token_address', up ? '>' : '<', after);
    const addressOrder = up ? 'asc' : 'desc';
    let groups: { tokenAddress: Address; amount: bigint }[];
    if (type === 'ERC-721') {
      const rows = asRows(await q.andWhere('token_id', noId).select('token_address', 'value').orderBy('token_address', addressOrder).limit(room));
      groups = rows.map((r) => ({ tokenAddress: address(r, 'token_address'), amount: big(r, 'value') }));
    } else {
      const rows = asRows(
        await q
          .andWhere('token_id', '<>', noId)
          .select('token_address')
          .count({ amount: '*' })
          .groupBy('token_address')
          .orderBy('token_address', addressOrder)
          .limit(room),
      );
      groups = rows.map((r) => ({ tokenAddress: address(r, 'token_address'), amount: big(r, 'amount') }));
    }
    if (groups.length === 0) continue;
    const held = new Map<Address, { tokenId: bigint; value: bigint }[]>();
    const cond = keyCondition(d, ['token_address'], groups.map((g) => [g.tokenAddress]));
    const rows =
      shown === 0
        ? []
        : type === 'ERC-721'
          ? await c.raw(
              `SELECT * FROM (SELECT "token_address", "token_id", ROW_NUMBER() OVER (PARTITION BY "token_address" ORDER BY "token_id" DESC) AS rn ` +
                `FROM nft_owners WHERE "owner" = ? AND "token_type" = 'ERC-721' AND ${cond.sql}) h WHERE rn <= ?`,
              [filter.holder, ...cond.bindings, shown],
            )
          : await c.raw(
              `SELECT * FROM (SELECT "token_address", "token_id", "value", ROW_NUMBER() OVER (PARTITION BY "token_address" ORDER BY "token_id" DESC) AS rn ` +
                `FROM current_token_balances WHERE "holder" = ? AND "token_type" = ? AND "token_id" <> ? AND "value" > ? AND ${cond.sql}) h ` +
                `WHERE rn <= ?`,
              [filter.holder, type, noId, zero, ...cond.bindings, shown],
            );
    for (const r of rows) {
      const token = address(r, 'token_address');
      const list = held.get(token) ?? [];
      list.push({ tokenId: big(r, 'token_id'), value: type === 'ERC-721' ? 1n : big(r, 'value') });
      held.set(token, list);
    }
    for (const g of groups) {
      const holdings = (held.get(g.tokenAddress) ?? []).sort((a, b) => cmpBig(b.tokenId, a.tokenId));
      out.push({ tokenAddress: g.tokenAddress, tokenType: type, amount: g.amount, holdings });
    }
  }
  return out;
}
