/** GET /withdrawals — every stored beacon-chain withdrawal, index DESC (keyset `index < I`). */
import * as E from 'fp-ts/lib/Either.js';
import { integer } from '../params/codecs.ts';
import { itemsCount } from '../paging/page.ts';
import { page } from '../schema/page.ts';
import { Withdrawal } from '../schema/withdrawal.ts';
import { defineEndpoint } from './endpoint.ts';
import { withdrawalPage } from './withdrawalPage.ts';

export const withdrawals = defineEndpoint({
  route: '/withdrawals',
  summary: 'Beacon-chain withdrawals, newest index first',
  path: {},
  query: { index: integer(), items_count: itemsCount },
  response: page(Withdrawal),
  handler:
    ({ ds, render }) =>
    ({ query }) =>
    async () =>
      E.right(await withdrawalPage(ds, render, {}, query, 'all')),
});
