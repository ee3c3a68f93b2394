/**
 * The code of created contracts (one row per creation) with its kept count, and the callTracer
 * frames of traced transactions (migration 011), proxies' implementation changes (migration 022),
 * of consensus blocks.
 */
import type { Knex } from 'knex';
import type { BlockBundle, Hash } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import { asRows, contractRow, num, proxyRow, traceFrameRow } from '../rows.ts';
import { KEY_CHUNK, chunks, insertRows } from '../sql.ts';
import type { Key } from './batch.ts';

/** Insert the created contracts' code, the trace frames and the proxy changes (their proxies into `proxies`). */
export async function insertContractsAndTraces(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[], proxies: Key[]): Promise<void> {
  const contracts = consensus.flatMap((b) => (b.contractCodes ?? []).map(contractRow));
  await insertRows(trx, d, 'contracts', contracts);
  if (contracts.length > 0) await trx('contract_counter').where('id', 1).increment('total', contracts.length);
  await insertRows(
    trx,
    d,
    'trace_frames',
    consensus.flatMap((b) => (b.traceFrames ?? []).map((f) => traceFrameRow(d, f))),
  );
  const changes = consensus.flatMap((b) => (b.proxies ?? []).map((p) => proxyRow(b.block.hash, p)));
  await insertRows(trx, d, 'proxy_implementations', changes);
  for (const c of changes) proxies.push([c.proxy]);
}

/** Before blocks are deleted: take their contracts off the kept count. */
export async function uncountContracts(trx: Knex.Transaction, hashes: readonly Hash[]): Promise<void> {
  let contracts = 0;
  for (const part of chunks(hashes, KEY_CHUNK)) {
    const counted = asRows(await trx('contracts').whereIn('block_hash', part).count({ n: '*' }))[0];
    contracts += counted === undefined ? 0 : num(counted, 'n');
  }
  if (contracts > 0) await trx('contract_counter').where('id', 1).decrement('total', contracts);
}
