/**
 * countTokenTransfers: an index range count — token_transfers by transfers_token
 * (token_address, …), or one id's rows of token_transfer_ids by its primary key (token_address,
 * token_id, …; one row per transfer and id, so a batch counts once).
 */
import type { TokenTransferCountFilter } from '../../../lib/ports.ts';
import { asRows, num } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function countTokenTransfers(c: SqlContext, filter: TokenTransferCountFilter): Promise<number> {
  const { knex, d } = c;
  const q =
    filter.tokenId === undefined
      ? knex('token_transfers').where('token_address', filter.tokenAddress)
      : knex('token_transfer_ids').where({ token_address: filter.tokenAddress, token_id: d.probe(filter.tokenId) });
  const r = asRows(await q.count({ n: '*' }))[0];
  return r === undefined ? 0 : num(r, 'n');
}
