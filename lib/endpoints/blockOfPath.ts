/**
 * The block a `/blocks/{block_hash_or_number_param}/...` path names: unknown → 404; by number,
 * a height whose stored block lost consensus → 404 "Block lost consensus" (as the block itself).
 */
import * as E from 'fp-ts/lib/Either.js';
import type { BlockRecord } from '../domain/records.ts';
import type { ApiError } from '../errors.ts';
import { notFound } from '../errors.ts';
import type { BlockRefParam } from '../params/codecs.ts';
import type { DataSource } from '../ports.ts';

export async function blockOfPath(ds: DataSource, ref: BlockRefParam): Promise<E.Either<ApiError, BlockRecord>> {
  const found = await ds.getBlock(ref);
  if (found === null) return E.left(notFound);
  if ('number' in ref && !found.consensus) return E.left({ kind: 'BlockLostConsensus', hash: found.hash });
  return E.right(found);
}
