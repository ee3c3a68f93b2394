/**
 * Every endpoint's responses validated against the official OpenAPI documents: the
 * per-instance form against Blockscout 11.2.7, the multichain form `/{chain_id}/api/v2/...`
 * against the Pro API 0.5.0 (the patches of test/support/openapi.ts are the only exceptions).
 */
import type { Test } from 'tap';
import { toJson } from '../../lib/index.ts';
import type { Loaded } from '../support/explorer.ts';
import { loadApiSpecs, validateResponse } from '../support/openapi.ts';
import { endpointCases } from './cases.ts';

export async function openApiSuite(t: Test, loaded: Loaded): Promise<void> {
  const specs = await loadApiSpecs();
  const cases = endpointCases(loaded.chain.facts);
  for (const form of ['instance', 'pro'] as const) {
    await t.test(`${form} form`, async (t) => {
      const seen = new Set<string>();
      for (const c of cases) {
        const path = form === 'instance' ? `/api/v2${c.path}` : `/1/api/v2${c.path}`;
        const r = await loaded.explorer.handle({ path, query: c.query ?? {} });
        t.equal(r.status, c.status ?? 200, `${path} status`);
        // validate what a client receives: the exact JSON text, parsed
        const errors = validateResponse(specs, form, c.template, r.status, JSON.parse(toJson(r.body)));
        t.same(errors, [], `${c.endpoint} ${c.path} ${JSON.stringify(c.query ?? {})}`);
        seen.add(c.endpoint);
      }
      t.equal(seen.size, 16, 'every endpoint was validated');
    });
  }
  await t.test('error bodies validate too', async (t) => {
    const f = loaded.chain.facts;
    const checks: [string, string, number][] = [
      ['/transactions/{transaction_hash_param}', `/transactions/0x${'ab'.repeat(32)}`, 404],
      ['/transactions/{transaction_hash_param}', '/transactions/0x1', 422],
      ['/addresses/{address_hash_param}/tokens', `/addresses/${f.hotAddress}/tokens?type=bogus`, 422],
      ['/blocks/{block_hash_or_number_param}', '/blocks/abc', 422],
      ['/tokens/{address_hash_param}/transfers', `/tokens/${f.unknownAddress}/transfers`, 404],
    ];
    for (const [template, full, status] of checks) {
      const [path, qs] = full.split('?');
      const r = await loaded.explorer.handle({ path: `/api/v2${path}`, query: Object.fromEntries(new URLSearchParams(qs ?? '')) });
      t.equal(r.status, status, full);
      t.same(validateResponse(specs, 'instance', template, r.status, JSON.parse(toJson(r.body))), [], `${full} body`);
    }
  });
}
