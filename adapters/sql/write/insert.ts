/**
 * Inserting new blocks (none of them stored) with their rows, table group by table group:
 * non-consensus blocks keep only the block and its transactions (lists and current state see
 * consensus blocks only). Returns the history rows written (the append-only path's input).
 */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import { insertAddressHistory } from './addresses.ts';
import { insertBalanceHistory } from './balances.ts';
import type { Affected, Fresh } from './batch.ts';
import { insertBlocks } from './blocks.ts';
import { insertCoinBalances } from './coinBalances.ts';
import { insertContractsAndTraces } from './contracts.ts';
import { countInsertedBlocks } from './counters.ts';
import { insertInstanceHistory } from './instances.ts';
import { insertInternalTransactions } from './internal.ts';
import { insertLogs } from './logs.ts';
import { insertStateChanges } from './stateChanges.ts';
import { insertTokenHistory } from './tokens.ts';
import { insertTransactions } from './transactions.ts';
import { insertTransfers } from './transfers.ts';
import { insertUserOperations } from './userOperations.ts';
import { insertWithdrawals, withdrawalRows } from './withdrawals.ts';

export async function insertNewBlocks(trx: Knex.Transaction, d: Dialect, bundles: readonly BlockBundle[], affected: Affected): Promise<Fresh> {
  if (bundles.length === 0) return { tokens: [], addresses: [], balances: [], instances: [], transferIds: [] };
  countInsertedBlocks(bundles, affected.counters);
  const consensus = bundles.filter((b) => b.block.consensus);
  await insertBlocks(trx, d, bundles);
  affected.minedPending.push(...(await insertTransactions(trx, d, bundles, affected.counters)));
  await insertInternalTransactions(trx, d, consensus);
  await insertLogs(trx, d, consensus);
  const transferIds = await insertTransfers(trx, d, consensus, affected.transferIds);
  await insertStateChanges(trx, d, consensus);
  const tokens = await insertTokenHistory(trx, d, consensus, affected.tokens);
  const addresses = await insertAddressHistory(trx, d, consensus, affected.addresses);
  const balances = await insertBalanceHistory(trx, d, consensus, affected.balances);
  await insertCoinBalances(trx, d, consensus);
  const instances = await insertInstanceHistory(trx, d, consensus, affected.instances);
  await insertWithdrawals(
    trx,
    d,
    consensus.flatMap((b) => withdrawalRows(d, b)),
  );
  await insertContractsAndTraces(trx, d, consensus, affected.proxies);
  await insertUserOperations(trx, d, consensus);
  return { tokens, addresses, balances, instances, transferIds };
}
