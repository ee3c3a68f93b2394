/**
 * The callTracer frames of a traced transaction.
 */
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { NO_ROWS } from './filters.ts';
import type { MemoryReadContext } from './context.ts';

export function traceQueries({ s }: MemoryReadContext): Pick<VersionedDataSource, 'getTransactionTrace'> {
  return {
    async getTransactionTrace(transactionHash) {
      return [...(s.framesByTx.get(transactionHash) ?? NO_ROWS)];
    },
  };
}
