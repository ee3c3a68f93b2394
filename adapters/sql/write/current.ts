/**
 * The current values after a write (tokens, addresses, instances, balances with their holder
 * counts, ERC-721 owners, and token_search): either recomputed from history for every key the
 * write touched (so rollback and replacement restore them exactly), or, when the write only
 * appended, taken straight from the latest history row per key of the batch.
 */
import type { Knex } from 'knex';
import type { Dialect } from '../dialect.ts';
import { applyFreshAddresses, refreshAddresses } from './addresses.ts';
import { applyFreshBalances, refreshBalances } from './balances.ts';
import type { Affected, Fresh } from './batch.ts';
import { applyFreshInstances, refreshInstances } from './instances.ts';
import { applyFreshTokens, refreshTokens, syncTokenSearch } from './tokens.ts';
import { applyFreshOwners, refreshOwners } from './transfers.ts';

/** Recompute the current values of every touched key from history. */
export async function refreshCurrent(trx: Knex.Transaction, d: Dialect, affected: Affected): Promise<void> {
  const counted = await refreshBalances(trx, d, affected.balances);
  await refreshTokens(trx, d, affected.tokens);
  await syncTokenSearch(trx, d, [...counted, ...affected.tokens.map((k) => String(k[0]))]);
  await refreshAddresses(trx, d, affected.addresses);
  await refreshInstances(trx, d, affected.instances);
  await refreshOwners(trx, d, affected.transferIds);
}

/** The append-only path: current rows from the batch's history rows alone. */
export async function applyFresh(trx: Knex.Transaction, d: Dialect, fresh: Fresh): Promise<void> {
  const counted = await applyFreshBalances(trx, d, fresh.balances);
  await applyFreshTokens(trx, d, fresh.tokens);
  await syncTokenSearch(trx, d, [...counted, ...fresh.tokens.map((r) => String(r.address))]);
  await applyFreshAddresses(trx, d, fresh.addresses);
  await applyFreshInstances(trx, d, fresh.instances);
  await applyFreshOwners(trx, d, fresh.transferIds);
}
