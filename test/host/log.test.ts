/**
 * The log formats (host/log.ts), index's output in each (host/indexOutput.ts: rates a person can
 * read, `held` not rendered) and the key-set diff SIGHUP logs (host/keysReload.ts).
 */
import t from 'tap';
import { createLogger, createThrottle, formatLine, parseLogFormat } from '../../host/log.ts';
import { createIndexOutput } from '../../host/indexOutput.ts';
import { diffKeySets } from '../../host/keysReload.ts';
import { FREE_PLAN } from '../../host/plans.ts';
import type { IndexerEvent } from '../../lib/indexer/index.ts';

const at = new Date('2026-01-02T03:04:05.678Z');

t.test('text and json lines', async (t) => {
  t.equal(formatLine('json', at, 'info', 'listening', { url: 'http://x', n: 2 }), '{"time":"2026-01-02T03:04:05.678Z","level":"info","msg":"listening","url":"http://x","n":2}');
  t.equal(formatLine('json', at, 'warn', 'm', { time: 'no', msg: 'no', level: 'no', a: 1 }), '{"time":"2026-01-02T03:04:05.678Z","level":"warn","msg":"m","a":1}', 'fields never replace time, level, msg');
  t.equal(
    formatLine('text', at, 'info', 'keys reloaded', { added: ['bob (pro)'], file: '/k.json', note: 'two words', none: undefined }),
    '2026-01-02T03:04:05.678Z info  keys reloaded added=["bob (pro)"] file=/k.json note="two words"',
  );
  t.equal(parseLogFormat(undefined), 'text');
  t.equal(parseLogFormat('json'), 'json');
  t.throws(() => parseLogFormat('yaml'), /--log-format: text or json/);
  const out: string[] = [];
  const err: string[] = [];
  const log = createLogger('json', { write: (s: string) => out.push(s) }, { write: (s: string) => err.push(s) }, () => at);
  log.info('a');
  log.warn('b');
  log.error('c');
  t.same([out.length, err.length], [1, 2], 'info on out, warnings and errors on err');
});

t.test('throttle: the first at once, then one per interval with a count', async (t) => {
  let now = 0;
  const throttle = createThrottle(10_000, () => now);
  t.same(throttle('a'), { write: true, count: 1 });
  now = 1000;
  t.same(throttle('a'), { write: false, count: 0 });
  t.same(throttle('b'), { write: true, count: 1 }, 'per kind');
  now = 5000;
  t.same(throttle('a'), { write: false, count: 0 });
  now = 10_001;
  t.same(throttle('a'), { write: true, count: 3 }, 'stands for itself and the two held back');
});

const progress = (indexedHead: number): IndexerEvent => ({
  type: 'progress',
  indexedHead,
  targetHead: 100,
  nodeHead: 100,
  blocks: indexedHead + 1,
  transactions: 0,
  blocksPerSecond: 10,
  transactionsPerSecond: 0,
  etaSeconds: 9,
  headLag: 100 - indexedHead,
  elapsedMs: 1000,
});
const waiting = (attempt: number): IndexerEvent => ({ type: 'waiting', on: 'node', attempt, sinceMs: attempt * 1000, message: 'connection refused' });
const held: IndexerEvent = { type: 'held', what: 'block 5', reason: 'not-yet', message: 'null', attempt: 1, delayMs: 200 };

t.test('index output, json: readable rates, held not rendered', async (t) => {
  let now = 0;
  const out: string[] = [];
  const err: string[] = [];
  const output = createIndexOutput('json', { write: (s: string) => void out.push(s) }, { write: (s: string) => void err.push(s) }, { now: () => now });
  for (let i = 0; i < 50; i++) {
    now += 100;
    output.event(progress(i));
    output.event(waiting(i + 1));
    output.event(held);
  }
  output.event({ type: 'resumed', on: 'node', afterMs: 5000 });
  output.event({ type: 'lease', state: 'standby', holder: 'host-a:123' });
  output.rpcLine('rpc: retrying (timeout 3 since last said)');
  output.event(progress(100));
  const lines = [...out, ...err].map((l) => JSON.parse(l) as Record<string, unknown>);
  t.ok(lines.every((l) => typeof l.time === 'string' && typeof l.level === 'string' && typeof l.msg === 'string'), 'time, level, msg');
  t.equal(lines.filter((l) => l.msg === 'progress').length, 2, '5 s of progress events: one line, and the one reaching the target');
  t.same(
    lines.filter((l) => l.msg === 'waiting for the node').map((l) => l.waits),
    [1],
    'outage: one line per 10 s',
  );
  t.equal(lines.filter((l) => JSON.stringify(l).includes('block 5')).length, 0, 'held events are the hold log line’s, not rendered');
  t.match(lines.find((l) => l.msg === 'node back: resumed'), { level: 'info', on: 'node', afterMs: 5000 });
  t.match(lines.find((l) => l.msg === 'lease standby'), { holder: 'host-a:123' });
  t.match(lines.find((l) => l.from === 'rpc'), { level: 'warn' });
});

t.test('index output, text: stamped lines, held ignored', async (t) => {
  let now = Date.parse('2026-01-02T03:04:05.678Z');
  const out: string[] = [];
  const output = createIndexOutput('text', { write: (s: string) => void out.push(s), isTTY: false }, { write: (s: string) => void out.push(s) }, { now: () => now });
  output.say('scoutkit index: a → b', 'index');
  output.event(held);
  output.event(waiting(1));
  now += 1000;
  output.event(waiting(2));
  output.event({ type: 'resumed', on: 'node', afterMs: 1500 });
  t.same(out, [
    '2026-01-02T03:04:05.678Z scoutkit index: a → b\n',
    '2026-01-02T03:04:05.678Z waiting for the node (1 s, attempt 1): connection refused\n',
    '2026-01-02T03:04:06.678Z node back after 1.5 s: resumed\n',
  ]);
});

t.test('the key-set diff names keys and plans, never a key', async (t) => {
  const pro = { ...FREE_PLAN, name: 'pro', requests: 50 };
  const before = { keys: [{ key: 'alice-secret', plan: FREE_PLAN, name: 'alice' }, { key: 'carol-secret', plan: FREE_PLAN, name: 'carol' }, { key: 'anon-secret', plan: FREE_PLAN }] };
  const after = {
    keys: [{ key: 'bob-secret', plan: pro, name: 'bob' }, { key: 'carol-rotated', plan: pro, name: 'carol' }, { key: 'anon-secret', plan: FREE_PLAN }],
    secretKey: 'restricted-secret',
  };
  const change = diffKeySets(before, after);
  t.same(change, { added: ['bob (pro)'], removed: ['alice (free)'], changed: ['carol: new key, plan free → pro'], settings: ['secretKey'] });
  t.notOk(['alice-secret', 'carol-secret', 'anon-secret', 'bob-secret', 'carol-rotated', 'restricted-secret'].some((k) => JSON.stringify(change).includes(k)), 'no key in it');
  t.same(diffKeySets(after, after), { added: [], removed: [], changed: [], settings: [] });
});
