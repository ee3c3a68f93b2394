/**
 * What a writeBlocks call does, decided before it changes anything: which stored blocks go
 * (a new consensus block at an occupied height replaces the consensus block there), which new
 * blocks come (a block already stored, same hash, is skipped), and whether the write only
 * appends (nothing removed, every new block above every stored one).
 */
import type { Knex } from 'knex';
import type { BlockBundle, Hash } from '../../../lib/domain/records.ts';
import { InvalidWriteError } from '../../../lib/sink/validate.ts';
import { asRows, num, str } from '../rows.ts';
import { KEY_CHUNK, chunks } from '../sql.ts';

export interface WritePlan {
  /** stored blocks to delete, with everything they brought */
  readonly removed: readonly Hash[];
  /** new blocks to insert, in order */
  readonly planned: readonly BlockBundle[];
  /**
   * append-only: each new history row is later than every stored row of its key, so current
   * values follow from the batch alone
   */
  readonly appending: boolean;
}

/** The plan of writing `bundles` (validated); null when every block is stored already. */
export async function planWrite(trx: Knex.Transaction, bundles: readonly BlockBundle[]): Promise<WritePlan | null> {
  const hashes = [...new Set(bundles.map((b) => b.block.hash))];
  const numbers = [...new Set(bundles.map((b) => b.block.number))];
  const existing = new Map<Hash, number>();
  for (const part of chunks(hashes, KEY_CHUNK)) {
    for (const r of asRows(await trx('blocks').select('hash', 'number').whereIn('hash', part))) {
      existing.set(str(r, 'hash') as Hash, num(r, 'number'));
    }
  }
  const consensusAt = new Map<number, Hash>();
  for (const part of chunks(numbers, KEY_CHUNK)) {
    const rows = asRows(await trx('blocks').select('hash', 'number').whereIn('number', part).andWhere('consensus', true));
    for (const r of rows) consensusAt.set(num(r, 'number'), str(r, 'hash') as Hash);
  }
  // a hash keeps its number across the store and the batch
  const numberOf = new Map<Hash, number>();
  for (const { block } of bundles) {
    const known = existing.get(block.hash) ?? numberOf.get(block.hash);
    if (known !== undefined && known !== block.number) {
      throw new InvalidWriteError(`block ${block.hash} is stored at ${known}, written at ${block.number}`);
    }
    numberOf.set(block.hash, block.number);
  }
  // which stored blocks go, which new ones come, in order
  const removed = new Set<Hash>();
  const planned = new Map<Hash, BlockBundle>();
  for (const bundle of bundles) {
    const { hash, number, consensus } = bundle.block;
    if ((existing.has(hash) && !removed.has(hash)) || planned.has(hash)) continue;
    if (consensus) {
      const current = consensusAt.get(number);
      if (current !== undefined) {
        if (planned.has(current)) planned.delete(current);
        else removed.add(current);
      }
      consensusAt.set(number, hash);
    }
    planned.set(hash, bundle);
  }
  if (removed.size === 0 && planned.size === 0) return null; // all stored already: nothing changes
  let appending = removed.size === 0;
  if (appending) {
    const top = asRows(await trx('blocks').max({ m: 'number' }))[0];
    const stored = top === undefined || top.m === null ? null : num(top, 'm');
    appending = stored === null || [...planned.values()].every((b) => b.block.number > stored);
  }
  return { removed: [...removed], planned: [...planned.values()], appending };
}
