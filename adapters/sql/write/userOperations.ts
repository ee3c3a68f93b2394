/**
 * The user operations of consensus blocks (migration 026): inserted with their block; deleted
 * with it by removeBlocks (BLOCK_ROWS); for a backfill, the blocks holding EntryPoint logs and
 * a stored block's operations replaced.
 */
import type { Knex } from 'knex';
import type { Address, BlockBundle, Hash, Hex } from '../../../lib/domain/records.ts';
import type { UserOperationRecord } from '../../../lib/domain/userOperations.ts';
import type { Dialect } from '../dialect.ts';
import { InvalidWriteError } from '../../../lib/sink/validate.ts';
import type { WriteRow } from '../rows.ts';
import { asRows, num, hash } from '../rows.ts';
import { insertRows } from '../sql.ts';
import { countParties, uncountBlocksParties } from './userOperationParties.ts';

export function userOperationRow(d: Dialect, o: UserOperationRecord): WriteRow {
  return {
    hash: o.hash,
    sender: o.sender,
    nonce: d.big(o.nonce),
    init_code: o.initCode,
    call_data: o.callData,
    call_gas_limit: d.big(o.callGasLimit),
    verification_gas_limit: d.big(o.verificationGasLimit),
    pre_verification_gas: d.big(o.preVerificationGas),
    max_fee_per_gas: d.big(o.maxFeePerGas),
    max_priority_fee_per_gas: d.big(o.maxPriorityFeePerGas),
    paymaster_and_data: o.paymasterAndData,
    signature: o.signature,
    aggregator: o.aggregator,
    aggregator_signature: o.aggregatorSignature,
    entry_point: o.entryPoint,
    entry_point_version: o.entryPointVersion,
    transaction_hash: o.transactionHash,
    transaction_index: o.transactionIndex,
    block_number: o.blockNumber,
    block_hash: o.blockHash,
    timestamp: o.timestamp,
    bundler: o.bundler,
    bundle_index: o.bundleIndex,
    op_index: o.index,
    factory: o.factory,
    paymaster: o.paymaster,
    status: o.status,
    revert_reason: o.revertReason,
    gas: d.big(o.gas),
    gas_price: d.big(o.gasPrice),
    gas_used: d.big(o.gasUsed),
    actual_gas_cost: d.big(o.actualGasCost),
    sponsor_type: o.sponsorType,
    user_logs_start_index: o.userLogsStartIndex,
    user_logs_count: o.userLogsCount,
  };
}

export async function insertUserOperations(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[]): Promise<void> {
  const ops = consensus.flatMap((b) => b.userOperations ?? []);
  await insertRows(
    trx,
    d,
    'user_operations',
    ops.map((o) => userOperationRow(d, o)),
  );
  await countParties(trx, ops, 1);
}

/**
 * The stored consensus blocks holding a log of one of `addresses` with this first topic, lowest
 * first: one seek of logs_address per address. One statement for all of them (address IN, with
 * DISTINCT and ORDER BY) let SQLite scan every log through logs_list wherever its statistics say
 * few addresses hold many logs (the bench's data set, a chain of a few contracts): 820 ms at a
 * million logs, against one seek per EntryPoint.
 */
export async function blocksWithLogs(knex: Knex, addresses: readonly Address[], topic0: Hex): Promise<{ number: number; hash: Hash }[]> {
  const found = new Map<string, { number: number; hash: Hash }>();
  for (const address of new Set(addresses)) {
    const rows = asRows(
      await knex('logs')
        .distinct('block_number', 'block_hash')
        .where('address', address)
        // topics are a JSON array of strings: the first one leads the text
        .andWhere('topics', 'like', `["${topic0}"%`),
    );
    for (const r of rows) {
      const block = { number: num(r, 'block_number'), hash: hash(r, 'block_hash') };
      found.set(`${block.number}:${block.hash}`, block);
    }
  }
  return [...found.values()].sort((a, b) => a.number - b.number || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
}

/** Replace a stored consensus block's user operations (a backfill); false when the block is not stored. */
export async function replaceUserOperations(trx: Knex.Transaction, d: Dialect, blockHash: Hash, operations: readonly UserOperationRecord[]): Promise<boolean> {
  for (const o of operations) {
    if (o.blockHash !== blockHash) throw new InvalidWriteError(`user operation ${o.hash} belongs to block ${o.blockHash}, written for ${blockHash}`);
  }
  const stored = asRows(await trx('blocks').select('hash').where('hash', blockHash).andWhere('consensus', true));
  if (stored.length === 0) return false;
  await uncountBlocksParties(trx, [blockHash]);
  await trx('user_operations').where('block_hash', blockHash).delete();
  await insertRows(
    trx,
    d,
    'user_operations',
    operations.map((o) => userOperationRow(d, o)),
  );
  await countParties(trx, operations, 1);
  return true;
}
