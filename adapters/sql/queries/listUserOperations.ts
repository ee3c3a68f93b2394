/**
 * The user operations (migration 026): getUserOperation by its key, listUserOperations in
 * (block_number DESC, hash DESC) with a row-value seek on the index of the first filter given
 * (transaction_hash, sender, block_number, paymaster, factory, bundler, entry_point; the others
 * are row conditions on it).
 */
import type { Address, Hash, Hex } from '../../../lib/domain/records.ts';
import type { EntryPointVersion, SponsorType, UserOperationRecord } from '../../../lib/domain/userOperations.ts';
import type { Page, UserOperationCursor, UserOperationFilter } from '../../../lib/ports.ts';
import type { Row } from '../rows.ts';
import { asRows, big, bool, hex, hexOrNull, num, str, address, addressOrNull, hash } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { orderBy, pageSize, past } from './seek.ts';

export function toUserOperation(r: Row): UserOperationRecord {
  return {
    hash: hash(r, 'hash'),
    sender: address(r, 'sender'),
    nonce: big(r, 'nonce'),
    initCode: hex(r, 'init_code'),
    callData: hex(r, 'call_data'),
    callGasLimit: big(r, 'call_gas_limit'),
    verificationGasLimit: big(r, 'verification_gas_limit'),
    preVerificationGas: big(r, 'pre_verification_gas'),
    maxFeePerGas: big(r, 'max_fee_per_gas'),
    maxPriorityFeePerGas: big(r, 'max_priority_fee_per_gas'),
    paymasterAndData: hex(r, 'paymaster_and_data'),
    signature: hex(r, 'signature'),
    aggregator: addressOrNull(r, 'aggregator'),
    aggregatorSignature: hexOrNull(r, 'aggregator_signature') as Hex | null,
    entryPoint: address(r, 'entry_point'),
    entryPointVersion: str(r, 'entry_point_version') as EntryPointVersion,
    transactionHash: hash(r, 'transaction_hash'),
    transactionIndex: num(r, 'transaction_index'),
    blockNumber: num(r, 'block_number'),
    blockHash: hash(r, 'block_hash'),
    timestamp: num(r, 'timestamp'),
    bundler: address(r, 'bundler'),
    bundleIndex: num(r, 'bundle_index'),
    index: num(r, 'op_index'),
    factory: addressOrNull(r, 'factory'),
    paymaster: addressOrNull(r, 'paymaster'),
    status: bool(r, 'status'),
    revertReason: hexOrNull(r, 'revert_reason'),
    gas: big(r, 'gas'),
    gasPrice: big(r, 'gas_price'),
    gasUsed: big(r, 'gas_used'),
    actualGasCost: big(r, 'actual_gas_cost'),
    sponsorType: str(r, 'sponsor_type') as SponsorType,
    userLogsStartIndex: num(r, 'user_logs_start_index'),
    userLogsCount: num(r, 'user_logs_count'),
  };
}

export async function getUserOperation(c: SqlContext, hash: Hash): Promise<UserOperationRecord | null> {
  const row = asRows(await c.knex('user_operations').select('*').where('hash', hash).limit(1))[0];
  return row === undefined ? null : toUserOperation(row);
}

/** filter field → column, in the order the seek's index is chosen */
const COLUMNS = [
  ['transactionHash', 'transaction_hash'],
  ['sender', 'sender'],
  ['blockNumber', 'block_number'],
  ['paymaster', 'paymaster'],
  ['factory', 'factory'],
  ['bundler', 'bundler'],
  ['entryPoint', 'entry_point'],
  ['bundleIndex', 'bundle_index'],
] as const;

export async function listUserOperations(c: SqlContext, filter: UserOperationFilter, page: Page<UserOperationCursor>): Promise<readonly UserOperationRecord[]> {
  const n = pageSize(page.limit);
  if (n === 0) return [];
  let q = c.knex('user_operations').select('*');
  for (const [field, column] of COLUMNS) {
    const v = filter[field];
    if (v !== undefined) q = q.where(column, v);
  }
  if (page.after !== null) q = past(q, ['block_number', 'hash'], [page.after.blockNumber, page.after.hash], page.order);
  const rows = asRows(
    await q
      .orderBy(
        orderBy(
          [
            ['block_number', 'desc'],
            ['hash', 'desc'],
          ],
          page.order,
        ),
      )
      .limit(n),
  );
  return rows.map(toUserOperation);
}
