/**
 * Each endpoint's handler answers its response codec's output type (lib/endpoints/endpoint.ts
 * ResponseBody): a wrong or missing field, or a stream where JSON belongs, does not compile —
 * the `@ts-expect-error` lines below must fail (`tsc --noEmit -p .` checks them: an unused one
 * is an error). The endpoints whose renderers still answer JsonObject are declared with
 * `defineUncheckedEndpoint`; their list here only shrinks (a new endpoint is checked).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import tap from 'tap';
import { defineEndpoint } from '../../lib/endpoints/endpoint.ts';
import type { EndpointDeps, EndpointInput } from '../../lib/endpoints/endpoint.ts';
import { ENDPOINTS } from '../../lib/endpoints/index.ts';
import type { ParamSpec } from '../../lib/params/decode.ts';
import { StreamedBody } from '../../lib/streamed.ts';

/** Where renderers still answer JsonObject (issue 39 item 7): remove a name when its endpoint moves to defineEndpoint. */
const UNCHECKED = [
  'smartContract',
  'smartContracts',
];

tap.test('a handler answers its codec: wrong fields do not compile', async (tap) => {
  const Pair = t.type({ name: t.string, count: t.number });
  const ok = defineEndpoint({ route: '/pair', summary: 'a pair', path: {}, query: {}, response: Pair, handler: () => () => async () => E.right({ name: 'a', count: 1 }) });
  tap.equal(ok.route, '/pair');
  if (false as boolean) {
    // @ts-expect-error a misspelled field (an extra field alone compiles: TypeScript's object types are open, as t.type's are)
    defineEndpoint({ route: '/pair', summary: 'a pair', path: {}, query: {}, response: Pair, handler: () => () => async () => E.right({ name: 'a', cuont: 1 }) });
    // @ts-expect-error a field of the wrong type
    defineEndpoint({ route: '/pair', summary: 'a pair', path: {}, query: {}, response: Pair, handler: () => () => async () => E.right({ name: 'a', count: '1' }) });
    // @ts-expect-error a missing field
    defineEndpoint({ route: '/pair', summary: 'a pair', path: {}, query: {}, response: Pair, handler: () => () => async () => E.right({ name: 'a' }) });
    // @ts-expect-error a stream where the codec describes JSON
    defineEndpoint({ route: '/pair', summary: 'a pair', path: {}, query: {}, response: Pair, handler: () => () => async () => E.right(new StreamedBody('text/csv', 'a.csv', [])) });

    // the registry's endpoints hold the same contract
    type Handler<N extends keyof typeof ENDPOINTS> = (typeof ENDPOINTS)[N]['handler'];
    const input = {} as EndpointInput<ParamSpec, ParamSpec>;
    const deps = {} as EndpointDeps;
    // @ts-expect-error the Token object has more fields than its address
    const token: Handler<'token'> = () => () => async () => E.right({ address_hash: '0x' });
    // @ts-expect-error /stats/charts/market's available_supply is always 0
    const market: Handler<'statsMarketChart'> = () => () => async () => E.right({ chart_data: [], available_supply: 1 });
    // @ts-expect-error a CSV export answers a stream, not JSON
    const csv: Handler<'addressLogsCsv'> = () => () => async () => E.right({ items: [] });
    void [token, market, csv, deps, input];
  }
});

tap.test('the unchecked endpoints only get fewer', async (tap) => {
  const dir = new URL('../../lib/endpoints/', import.meta.url);
  const found = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'endpoint.ts' && readFileSync(new URL(f, dir), 'utf8').includes('defineUncheckedEndpoint('))
    .map((f) => f.slice(0, -'.ts'.length))
    .sort();
  tap.same(found, UNCHECKED, 'the files declaring their endpoint with defineUncheckedEndpoint: the list above (update it when one moves to defineEndpoint)');
  tap.ok(Object.keys(ENDPOINTS).length > UNCHECKED.length * 2 - 10, `${Object.keys(ENDPOINTS).length} endpoints, ${UNCHECKED.length} unchecked`);
});
