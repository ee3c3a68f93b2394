/**
 * Withdrawal endpoints on a store without withdrawals (an anvil chain, a pre-Shanghai chain):
 * empty lists, counters "0"/"0" (Blockscout answers count "1" there), block counts 0.
 */
import { createExplorer } from '../../../lib/index.ts';
import { A, block, bundle } from '../../ports/records.ts';
import { storeTest } from '../../ports/stores.ts';

storeTest('withdrawal endpoints without withdrawals', async (t, s) => {
  await s.writeBlocks([bundle(block(0)), bundle(block(1))]);
  const ex = createExplorer({ chains: { '1': s } });
  const get = async (path: string) => {
    const r = await ex.handle({ path: `/api/v2${path}` });
    return { status: r.status, body: r.body };
  };
  const empty = { status: 200, body: { items: [], next_page_params: null } };
  t.same(await get('/withdrawals'), empty);
  t.same(await get(`/addresses/${A}/withdrawals`), empty);
  t.same(await get('/blocks/1/withdrawals'), empty);
  t.same(await get('/withdrawals/counters'), { status: 200, body: { withdrawals_count: '0', withdrawals_sum: '0' } });
  t.equal(((await get('/blocks/1')).body as { withdrawals_count: number }).withdrawals_count, 0);
  t.equal(((await get(`/addresses/${A}`)).body as { has_beacon_chain_withdrawals: boolean }).has_beacon_chain_withdrawals, false);
  t.same(await get('/blocks/2/withdrawals'), { status: 404, body: { message: 'Not found' } }, 'unknown block → 404');
});
