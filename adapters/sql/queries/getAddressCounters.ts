/**
 * getAddressCounters: the kept counters of a batch of addresses (primary-key lookups on
 * address_counters), with the contract rules applied from the address's current record; in
 * the order asked, each address once.
 */
import type { Address, AddressCountersRecord } from '../../../lib/domain/records.ts';
import { gasUsageOf, zeroParts } from '../../../lib/stats/addressCounters.ts';
import type { Row } from '../rows.ts';
import { asRows, big, str } from '../rows.ts';
import { KEY_CHUNK, chunks } from '../sql.ts';
import type { SqlContext } from './context.ts';
import { inOrder } from './seek.ts';

function toCounters(r: Row): AddressCountersRecord {
  const contract = r.is_contract === true || r.is_contract === 1;
  return {
    address: str(r, 'address') as Address,
    transactionsCount: big(r, 'transactions_count'),
    tokenTransfersCount: big(r, 'transfers'),
    gasUsageCount: gasUsageOf({ ...zeroParts(), gasIn: big(r, 'gas_in'), gasOut: big(r, 'gas_out') }, contract),
    validationsCount: big(r, 'validations'),
  };
}

export async function getAddressCounters(c: SqlContext, addresses: readonly Address[]): Promise<readonly AddressCountersRecord[]> {
  const parts = await Promise.all(
    chunks([...new Set(addresses)], KEY_CHUNK).map(async (part) =>
      asRows(
        await c
          .knex('address_counters as c')
          .leftJoin('addresses as a', 'a.hash', 'c.address')
          .select('c.address', 'c.transactions_count', 'c.transfers', 'c.gas_in', 'c.gas_out', 'c.validations', 'a.is_contract')
          .whereIn('c.address', part),
      ),
    ),
  );
  const found = new Map<Address, AddressCountersRecord>();
  for (const r of parts.flat().map(toCounters)) {
    // a row kept only for its coin balance has counted nothing: absent, as in the memory store
    if (r.transactionsCount !== 0n || r.tokenTransfersCount !== 0n || r.gasUsageCount !== 0n || r.validationsCount !== 0n) found.set(r.address, r);
  }
  return inOrder(addresses, found);
}
