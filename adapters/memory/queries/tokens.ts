/**
 * Tokens: current records by address and the /tokens list (holders first, by type and name or
 * symbol prefix).
 */
import type { Address, TokenRecord } from '../../../lib/domain/records.ts';
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { asciiLower, startsWithLower } from '../../../lib/domain/text.ts';
import { tokenListVs } from '../compare.ts';
import { takePage } from '../paging.ts';
import type { MemoryReadContext } from './context.ts';

export function tokenQueries({ views }: MemoryReadContext): Pick<VersionedDataSource, 'getToken' | 'getTokens' | 'listTokens'> {
  return {
    async getToken(address) {
      return views().token(address);
    },

    async getTokens(addresses: readonly Address[]): Promise<readonly TokenRecord[]> {
      const v = views();
      const out: TokenRecord[] = [];
      for (const a of new Set(addresses)) {
        const t = v.token(a);
        if (t !== null) out.push(t);
      }
      return out;
    },

    async listTokens(filter, page) {
      const prefix = asciiLower(filter.prefix ?? '');
      const types = filter.types !== undefined && filter.types.length > 0 ? filter.types : null;
      return takePage(views().tokenList, page.limit, {
        cursor: page.after === null ? null : tokenListVs(page.after),
        backward: page.order === 'asc',
        keep: (t) => (types === null || types.includes(t.type)) && (prefix === '' || startsWithLower(t.name, prefix) || startsWithLower(t.symbol, prefix)),
      });
    },
  };
}
