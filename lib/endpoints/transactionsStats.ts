/**
 * GET /transactions/stats — the transactions of the consensus blocks of the last 24 hours
 * (block timestamp in [now − 24 h, now] by the explorer's clock; a scan of that window's
 * blocks), their fee sum and integer average (fee per transaction: gas used × effective gas
 * price, summed per block at write time), and the pending transactions first seen in the last
 * 30 minutes. All strings, as Blockscout. From a store without sumBlocks (an optional query): 501,
 * not available from this store.
 */
import * as E from 'fp-ts/lib/Either.js';
import { queryUnavailable } from '../errors.ts';
import { TransactionStats } from '../schema/stats.ts';
import { defineEndpoint } from './endpoint.ts';

const DAY_SECONDS = 86_400;
const PENDING_WINDOW_MS = 30 * 60_000;
const TRANSACTION_STATS = 'Transaction statistics';

export const transactionsStats = defineEndpoint({
  route: '/transactions/stats',
  summary: 'Transactions and fees of the last 24 hours, pending transactions of the last 30 minutes',
  path: {},
  query: {},
  response: TransactionStats,
  mayLack: TRANSACTION_STATS,
  clock: true,
  handler:
    ({ ds, now }) =>
    () =>
    async () => {
      if (ds.sumBlocks === undefined) return E.left(queryUnavailable(TRANSACTION_STATS));
      const at = now();
      const seconds = Math.floor(at / 1000);
      const [day, pending] = await Promise.all([
        ds.sumBlocks({ from: seconds - DAY_SECONDS, to: seconds }),
        ds.countPendingTransactions({ insertedSince: at - PENDING_WINDOW_MS }),
      ]);
      return E.right({
        transactions_count_24h: String(day.transactions),
        pending_transactions_count: String(pending),
        transaction_fees_sum_24h: day.fees.toString(),
        transaction_fees_avg_24h: day.transactions === 0 ? '0' : (day.fees / BigInt(day.transactions)).toString(),
      });
    },
});
