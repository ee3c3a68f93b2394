/**
 * Addresses: current records by hash and the named addresses by name prefix (sorted lower-cased).
 */
import type { Address, AddressRecord, AddressView } from '../../../lib/domain/records.ts';
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { asciiLower, compareCodePoints } from '../../../lib/domain/text.ts';
import { namedAddressVs } from '../compare.ts';
import { takePage } from '../paging.ts';
import type { MemoryReadContext } from './context.ts';

export function addressQueries({ s, views }: MemoryReadContext): Pick<VersionedDataSource, 'getAddresses' | 'getAddressViews' | 'listAddresses'> {
  return {
    async getAddresses(hashes: readonly Address[]): Promise<readonly AddressRecord[]> {
      const out: AddressRecord[] = [];
      for (const h of new Set(hashes)) {
        const a = s.addresses.current(h);
        if (a !== undefined) out.push(a);
      }
      return out;
    },

    async getAddressViews(hashes: readonly Address[]): Promise<readonly AddressView[]> {
      const out: AddressView[] = [];
      for (const h of new Set(hashes)) {
        const view = { hash: h, record: s.addresses.current(h) ?? null, tokenType: s.tokens.current(h)?.type ?? null, proxied: s.proxies.entries(h).length > 0 };
        if (view.record !== null || view.tokenType !== null || view.proxied) out.push(view);
      }
      return out;
    },

    async listAddresses(filter, page) {
      const prefix = asciiLower(filter.namePrefix);
      // names sorted lower-cased: the matches are one contiguous window
      return takePage(views().namedAddresses, page.limit, {
        cursor: page.after === null ? null : namedAddressVs(page.after),
        backward: page.order === 'asc',
        ...(filter.isContract === undefined ? {} : { keep: (a: AddressRecord) => a.isContract === filter.isContract }),
        window: (a) => {
          const name = asciiLower(a.name);
          return name.startsWith(prefix) ? 0 : compareCodePoints(name, prefix);
        },
      });
    },
  };
}
