/**
 * The blocks table: a new block's row with its write order `seq` (the latest-written
 * non-consensus block is preferred at a height), and the indexed head.
 */
import type { Knex } from 'knex';
import type { BlockBundle, Hash } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { asRows, blockRow, num, str } from '../rows.ts';
import { insertRows } from '../sql.ts';

/** blocks' highest seq: one entry of blocks_seq (migration 017), whoever wrote last */
async function highestSeq(trx: Knex.Transaction): Promise<number> {
  const maxSeq = asRows(await trx('blocks').max({ m: 'seq' }))[0];
  return maxSeq === undefined || maxSeq.m === null ? 0 : num(maxSeq, 'm');
}

/** Insert the blocks (consensus or not), numbered after the highest stored seq. */
export async function insertBlocks(trx: Knex.Transaction, d: Dialect, bundles: readonly BlockBundle[]): Promise<void> {
  let seq = await highestSeq(trx);
  const rows: WriteRow[] = [];
  for (const { block } of bundles) {
    // the row builders return fresh objects: the extra columns are set on them (no copy)
    const row = blockRow(d, block);
    row.seq = ++seq;
    rows.push(row);
  }
  await insertRows(trx, d, 'blocks', rows);
}

/** The highest stored block, consensus preferred, then the latest written (DataSink.getIndexedHead). */
export async function indexedHead(knex: Knex): Promise<{ number: number; hash: Hash } | null> {
  const top = asRows(await knex('blocks').max({ m: 'number' }))[0];
  if (top === undefined || top.m === null) return null;
  const row = asRows(
    await knex('blocks')
      .select('number', 'hash')
      .where('number', num(top, 'm'))
      .orderBy([
        { column: 'consensus', order: 'desc' },
        { column: 'seq', order: 'desc' },
      ])
      .limit(1),
  )[0];
  return row === undefined ? null : { number: num(row, 'number'), hash: str(row, 'hash') as Hash };
}
