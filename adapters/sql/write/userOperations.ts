/**
 * The user operations of consensus blocks (migration 026): inserted with their block; deleted
 * with it by removeBlocks (BLOCK_ROWS).
 */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import type { UserOperationRecord } from '../../../lib/domain/userOperations.ts';
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { insertRows } from '../sql.ts';

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
  await insertRows(
    trx,
    d,
    'user_operations',
    consensus.flatMap((b) => (b.userOperations ?? []).map((o) => userOperationRow(d, o))),
  );
}
