/**
 * The route table's precedence holds whatever the registry order: every template, filled in,
 * is matched by its own endpoint over many shuffles of the table (a fixed segment such as
 * `/transactions/stats` is never taken for a parameter such as a transaction hash).
 */
import t from 'tap';
import { matchRoute, parsePath, ROUTES, routeMatcher } from '../../lib/routes.ts';

/** a deterministic shuffle (mulberry32) */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let z = a;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** a template with each parameter replaced by a value no fixed segment spells */
const filled = (template: string): string => template.replace(/:[^/]+/g, '0xabc0').replace(/(.)\/$/, '$1');

t.test('every template is matched by its own endpoint, in any registry order', async (t) => {
  t.ok(ROUTES.some((r) => r.template === '/transactions/stats'), 'the table holds a fixed path beside a parameter path');
  let checked = 0;
  for (let seed = 0; seed < 40; seed++) {
    const match = routeMatcher(shuffled(ROUTES, seed));
    for (const route of ROUTES) {
      const got = match(filled(route.template), route.method, route.api)?.endpoint;
      if (got !== route.endpoint) t.fail(`seed ${seed}: ${filled(route.template)} → ${String(got)}, expected ${route.endpoint}`);
      checked++;
    }
  }
  t.equal(checked, 40 * ROUTES.length, `${checked} matches checked`);
});

t.test('the v1 routes: only below /api/v1, in both forms; the rest of /api/v1 is not ours', async (t) => {
  t.same(
    ROUTES.filter((r) => r.api === 'v1').map((r) => [r.endpoint, r.template]),
    [['searchV1', '/search']],
    'one v1 route: the official documents\' /api/v1/search',
  );
  t.same(parsePath('/api/v1/search'), { chainId: undefined, subPath: '/search', api: 'v1' });
  t.same(parsePath('/api/v1/search/?q=x'), { chainId: undefined, subPath: '/search/', api: 'v1' });
  t.same(parsePath('/5/api/v1/search'), { chainId: '5', subPath: '/search', api: 'v1' }, 'the multichain form');
  t.same(parsePath('/api/v2/search'), { chainId: undefined, subPath: '/search', api: 'v2' });
  for (const other of ['/api/v1', '/api/v1/', '/api/v1/search/quick', '/api/v1/eth-rpc', '/5/api/v1/blocks', '/api/v3/search']) {
    t.equal(parsePath(other), null, `${other}: not a route of ours`);
  }
  t.equal(matchRoute('/search', 'GET', 'v1')?.endpoint, 'searchV1');
  t.equal(matchRoute('/search')?.endpoint, 'search', 'the v2 table by default');
  t.equal(matchRoute('/search/quick', 'GET', 'v1'), null, 'the v1 table holds only its own routes');
});
