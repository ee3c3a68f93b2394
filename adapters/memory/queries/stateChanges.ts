/**
 * State changes of a transaction of a consensus block.
 */
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { NO_ROWS } from './filters.ts';
import type { MemoryReadContext } from './context.ts';

export function stateChangeQueries({ s }: MemoryReadContext): Pick<VersionedDataSource, 'listStateChanges'> {
  return {
    async listStateChanges(transactionHash) {
      return [...(s.consensusBlockOf(transactionHash)?.stateChangesByTx.get(transactionHash) ?? NO_ROWS)];
    },
  };
}
