/**
 * Every explorer endpoint's responses validated, in both forms, against our own OpenAPI
 * document (always) and against the official documents when they are present (the
 * per-instance form against Blockscout 11.2.7, the multichain form `/{chain_id}/api/v2/...`
 * against the Pro API 0.5.0; the patches of test/support/openapi.ts are the only exceptions).
 */
import type { Test } from 'tap';
import { toJson } from '../../lib/index.ts';
import type { EndpointName } from '../../lib/index.ts';
import type { Loaded } from '../support/explorer.ts';
import { documentedMediaTypes, officialFormOf, officialSpecs, validateResponse } from '../support/openapi.ts';
import { validateOurs, validateOursStreamed } from '../support/openapiOurs.ts';
import { endpointCases, EXPLORER_ENDPOINTS, formPrefix, templateOf } from './cases.ts';

const FORMS = [{ form: 'instance' }, { form: 'multichain' }] as const;

/** Operations whose official documents list no 422 (their 422 is checked against ours only). */
const UNDOCUMENTED_422: readonly string[] = ['/main-page/blocks', '/main-page/indexing-status', '/addresses', '/smart-contracts/{address_hash_param}'];
/**
 * the account-abstraction paths document 400/404/501 only (Blockscout's parameter checks answer
 * 422 there too) — but for the operation's summary, which documents its 422 (checked as any)
 */
const ACCOUNT_ABSTRACTION = '/proxy/account-abstraction/';
const undocumented422 = (template: string): boolean =>
  UNDOCUMENTED_422.includes(template) || (template.startsWith(ACCOUNT_ABSTRACTION) && !template.endsWith('/summary'));

export async function openApiSuite(t: Test, loaded: Loaded): Promise<void> {
  const specs = await officialSpecs();
  const cases = endpointCases(loaded.chain.facts);
  for (const { form } of FORMS) {
    await t.test(`${form} form`, async (t) => {
      const seen = new Set<string>();
      for (const c of cases) {
        const path = `${formPrefix(form, c.endpoint)}${c.path}`;
        const r = await loaded.explorer.handle({ path, query: c.query ?? {} });
        t.equal(r.status, c.status ?? 200, `${path} status`);
        const label = `${c.endpoint} ${c.path} ${JSON.stringify(c.query ?? {})}`;
        if (r.stream !== undefined) {
          // a streamed file (the CSV exports): its media type as documented, a CSV text
          let text = '';
          for await (const chunk of r.stream) text += chunk;
          t.match(text, /^[A-Za-z]+(,[A-Za-z]+)*\r\n/, `${label}: a CSV header record`);
          t.same(validateOursStreamed(form, c.template, r), [], `${label}: our document`);
          if (specs !== null) {
            const types = documentedMediaTypes(specs, officialFormOf(form, c.template), c.template, r.status);
            t.same(types, ['application/csv'], `${label}: the official document lists a CSV file (we send the registered text/csv)`);
          }
          seen.add(c.endpoint);
          continue;
        }
        // validate what a client receives: the exact JSON text, parsed
        const body: unknown = JSON.parse(toJson(r.body));
        t.same(validateOurs(form, c.template, r.status, body), [], `${label}: our document`);
        if (specs !== null) t.same(validateResponse(specs, officialFormOf(form, c.template), c.template, r.status, body), [], `${label}: official document`);
        seen.add(c.endpoint);
      }
      t.same([...seen].sort(), [...EXPLORER_ENDPOINTS].sort(), 'every explorer endpoint of the registry was validated');
    });
  }
  await t.test('error bodies validate too', async (t) => {
    const f = loaded.chain.facts;
    // [template, path below the endpoint's prefix, status, the endpoint (for its prefix; default: a v2 one)]
    const checks: [string, string, number, EndpointName?][] = [
      ['/transactions/{transaction_hash_param}', `/transactions/0x${'ab'.repeat(32)}`, 404],
      ['/transactions/{transaction_hash_param}', '/transactions/0x1', 422],
      ['/addresses/{address_hash_param}/tokens', `/addresses/${f.hotAddress}/tokens?type=bogus`, 422],
      ['/blocks/{block_hash_or_number_param}', '/blocks/abc', 422],
      ['/tokens/{address_hash_param}/transfers', `/tokens/${f.unknownAddress}/transfers`, 404],
    ];
    // every explorer endpoint: an unknown query parameter is a 422
    const first = new Map(endpointCases(f).map((c) => [c.endpoint, c.path]));
    for (const name of EXPLORER_ENDPOINTS) checks.push([templateOf(name), `${first.get(name) ?? ''}?surprise=1`, 422, name]);
    for (const { form } of FORMS) {
      for (const [template, full, status, endpoint] of checks) {
        const [path, qs] = full.split('?');
        const r = await loaded.explorer.handle({ path: `${formPrefix(form, endpoint ?? 'blocks')}${path}`, query: Object.fromEntries(new URLSearchParams(qs ?? '')) });
        t.equal(r.status, status, `${form} ${full}`);
        const body: unknown = JSON.parse(toJson(r.body));
        t.same(validateOurs(form, template, r.status, body), [], `${form} ${full}: our document`);
        if (specs === null) continue;
        const errors = validateResponse(specs, officialFormOf(form, template), template, r.status, body);
        if (undocumented422(template) && status === 422) {
          // Blockscout answers it (every operation validates its query), the documents omit it
          t.match(errors.join(), /documents no 422 response/, `${form} ${full}: the official document has no 422 here`);
        } else t.same(errors, [], `${form} ${full}: official document`);
      }
    }
    const unknownChain = await loaded.explorer.handle({ path: '/7/api/v2/blocks' });
    t.equal(unknownChain.status, 404);
    t.same(validateOurs('multichain', '/blocks', 404, JSON.parse(toJson(unknownChain.body))), [], 'unknown chain 404: our document');
  });
}
