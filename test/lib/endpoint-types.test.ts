/**
 * Each endpoint's handler answers its response codec's output type (lib/endpoints/endpoint.ts
 * ResponseBody): a wrong or missing field, or a stream where JSON belongs, does not compile —
 * the `@ts-expect-error` lines below must fail (`tsc --noEmit -p .` checks them: an unused one
 * is an error). Every endpoint is declared so: none answers bare JSON past tsc.
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

tap.test('every endpoint is declared with defineEndpoint (its handler checked by tsc)', async (tap) => {
  const dir = new URL('../../lib/endpoints/', import.meta.url);
  const declaring = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'endpoint.ts')
    .map((f) => ({ name: f.slice(0, -'.ts'.length), text: readFileSync(new URL(f, dir), 'utf8') }))
    .filter((f) => /^\s+route: '/m.test(f.text));
  tap.ok(declaring.length >= Object.keys(ENDPOINTS).length - 10, `${declaring.length} files declare an endpoint`);
  tap.same(
    declaring.filter((f) => !/defineEndpoint\(|defineAddressExport</.test(f.text)).map((f) => f.name),
    [],
    'a file declaring a route declares it with defineEndpoint (the CSV exports through defineAddressExport, which does)',
  );
  tap.match(readFileSync(new URL('addressExport.ts', dir), 'utf8'), /return defineEndpoint\(/, 'defineAddressExport declares with defineEndpoint');
  tap.same(
    declaring.filter((f) => /as unknown as (Any)?Endpoint\b/.test(f.text)).map((f) => f.name),
    [],
    'no endpoint cast past its codec',
  );
});
