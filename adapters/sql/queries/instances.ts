/**
 * Token instances with their derived owner and uniqueness (ERC-721: the latest transfer's
 * receiver; ERC-1155/404: the only holder of exactly 1), looked up in batches; and one
 * holder's balance of an id.
 */
import type { Address, TokenInstanceRecord } from '../../../lib/domain/records.ts';
import type { TokenInstanceKey } from '../../../lib/ports.ts';
import { big, num, str, tokenType, asRows, address } from '../rows.ts';
import { KEY_CHUNK, chunks, keyCondition } from '../sql.ts';
import { ZERO_ADDRESS } from '../../../lib/domain/hex.ts';
import type { SqlContext } from './context.ts';
import { inOrder } from './seek.ts';

/** Instances with their derived owner and uniqueness, keyed `${token}|${idKey}`. */
async function instancesByKey(c: SqlContext, keys: readonly (readonly [Address, string])[]): Promise<Map<string, TokenInstanceRecord>> {
  const out = new Map<string, TokenInstanceRecord>();
  for (const part of chunks(keys, KEY_CHUNK)) {
  const cond = keyCondition(c.d, ['token_address', 'token_id'], part, 'i');
  const rows = await c.raw(
    `SELECT i.*, o."owner" AS erc721_owner FROM token_instances i ` +
      `LEFT JOIN nft_owners o ON o."token_address" = i."token_address" AND o."token_id" = i."token_id" WHERE ${cond.sql}`,
    cond.bindings,
  );
  // ERC-1155/404: the holders of each id with a positive balance (up to 2 tell "sole")
  const multi = rows.filter((r) => str(r, 'token_type') === 'ERC-1155' || str(r, 'token_type') === 'ERC-404');
  const sole = new Map<string, { holder: Address; value: bigint; count: number }>();
  if (multi.length > 0) {
    const c2 = keyCondition(c.d, ['token_address', 'token_id'], multi.map((r) => [str(r, 'token_address'), String(r.token_id)]));
    const holders = await c.raw(
      `SELECT * FROM (SELECT "token_address", "token_id", "holder", "value", ` +
        `ROW_NUMBER() OVER (PARTITION BY "token_address", "token_id" ORDER BY "holder") AS rn, ` +
        `COUNT(*) OVER (PARTITION BY "token_address", "token_id") AS n ` +
        `FROM current_token_balances WHERE ${c2.sql} AND "value" > ? AND "holder" <> ?) h WHERE rn = 1`,
      [...c2.bindings, c.d.key(0n), ZERO_ADDRESS],
    );
    for (const h of holders) {
      sole.set(`${str(h, 'token_address')}|${String(h.token_id)}`, {
        holder: address(h, 'holder'),
        value: big(h, 'value'),
        count: num(h, 'n'),
      });
    }
  }
  for (const r of rows) {
    const token = address(r, 'token_address');
    const key = `${token}|${String(r.token_id)}`;
    const type = tokenType(r, 'token_type');
    let owner: Address | null = null;
    let isUnique = false;
    if (type === 'ERC-721') {
      owner = r.erc721_owner === null || r.erc721_owner === undefined ? null : address(r, 'erc721_owner');
      isUnique = true;
    } else if (type === 'ERC-1155' || type === 'ERC-404') {
      const s = sole.get(key);
      owner = s !== undefined && s.count === 1 && s.value === 1n ? s.holder : null;
      isUnique = owner !== null;
    }
    const meta = r.metadata === null || r.metadata === undefined ? null : metadataOf(str(r, 'metadata'));
    out.set(key, { tokenAddress: token, tokenId: big(r, 'token_id'), tokenType: type, metadata: meta, owner, isUnique });
  }
  }
  return out;
}

export async function getTokenInstances(c: SqlContext, keys: readonly TokenInstanceKey[]): Promise<TokenInstanceRecord[]> {
  const encoded = keys.map((k) => [k.tokenAddress, c.d.probe(k.tokenId)] as const);
  const found = await instancesByKey(c, encoded);
  // the stored id key may print differently (pg numeric), so match by decoded id
  const byId = new Map<string, TokenInstanceRecord>();
  for (const i of found.values()) byId.set(`${i.tokenAddress}|${i.tokenId}`, i);
  return inOrder(keys.map((k) => `${k.tokenAddress}|${k.tokenId}`), byId);
}

export async function balanceOf(c: SqlContext, holder: Address, token: Address, id: bigint): Promise<bigint> {
  const rows = asRows(await c.knex('current_token_balances').select('value').where({ holder, token_address: token, token_id: c.d.probe(id) }));
  return rows.length === 0 ? 0n : big(rows[0], 'value');
}

function metadataOf(text: string): Record<string, unknown> | null {
  const v: unknown = JSON.parse(text);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  return v as Record<string, unknown>;
}
