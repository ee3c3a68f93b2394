/** getBlock: by hash, or the preferred block at a height (consensus, else the latest-written other). */
import type { BlockRecord } from '../../../lib/domain/records.ts';
import type { BlockRef } from '../../../lib/ports.ts';
import { asRows, toBlock } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function getBlock(c: SqlContext, ref: BlockRef): Promise<BlockRecord | null> {
  const { knex } = c;
  if ('hash' in ref) {
    const rows = asRows(await knex('blocks').where('hash', ref.hash));
    return rows.length === 0 ? null : toBlock(rows[0]);
  }
  // the consensus block at the height, else the latest-written other one
  const rows = asRows(
    await knex('blocks')
      .where('number', ref.number)
      .orderBy([
        { column: 'number', order: 'desc' },
        { column: 'consensus', order: 'desc' },
        { column: 'seq', order: 'desc' },
      ])
      .limit(1),
  );
  return rows.length === 0 ? null : toBlock(rows[0]);
}
