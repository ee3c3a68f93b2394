/**
 * GET /addresses/{address_hash_param}/withdrawals — withdrawals to an address, index DESC;
 * items without `receiver` (Blockscout's shape). An unknown address → an empty page.
 */
import * as E from 'fp-ts/lib/Either.js';
import { addressHash, integer } from '../params/codecs.ts';
import { itemsCount } from '../paging/page.ts';
import { page } from '../schema/page.ts';
import { AddressWithdrawal } from '../schema/withdrawal.ts';
import { defineEndpoint } from './endpoint.ts';
import { withdrawalPage } from './withdrawalPage.ts';

export const addressWithdrawals = defineEndpoint({
  route: '/addresses/{address_hash_param}/withdrawals',
  summary: 'Beacon-chain withdrawals to an address, newest index first',
  path: { address_hash_param: addressHash },
  query: { index: integer(), items_count: itemsCount },
  response: page(AddressWithdrawal),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () =>
      E.right(await withdrawalPage(ds, render, { address: path.address_hash_param }, query, 'address')),
});
