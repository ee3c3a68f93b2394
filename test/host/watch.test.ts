/**
 * Watching an indexer: `scoutkit index --follow --metrics-port 0 --log-format json` against an
 * anvil that mines a block a second, into SQLite, with `scoutkit serve --max-head-age` over the
 * same file. /metrics carries the series with plausible values, /health is 200 while the run
 * loop lives; /ready goes 503 (naming the chain) once the indexer is killed and the head stops
 * moving, and 200 again once an indexer is back; every log line is JSON with time, level, msg.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startAnvil } from '../../demo/anvil.ts';
import { eventually, startScoutkit } from './child.ts';
import type { Child, LogLine } from './child.ts';
import { request } from './helpers.ts';

const anvil = await startAnvil({ blockTime: 1 });
const dir = mkdtempSync(join(tmpdir(), 'scoutkit-watch-'));
t.teardown(async () => {
  await anvil.stop();
  rmSync(dir, { recursive: true, force: true });
});
const db = `sqlite:${join(dir, 'chain.sqlite')}`;

const indexer = (): Child => startScoutkit(['index', '--rpc', anvil.url, '--db', db, '--follow', '--metrics-port', '0', '--log-format', 'json']);
const metricsUrl = async (child: Child): Promise<string> => String((await child.waitFor((l) => l.msg === 'metrics', 90_000)).url);
/** `name{labels} value` → value */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const isLogLine = (l: LogLine): boolean => typeof l.time === 'string' && !Number.isNaN(Date.parse(l.time)) && typeof l.level === 'string' && typeof l.msg === 'string';

t.test('index --metrics-port, serve --max-head-age, --log-format json', async (t) => {
  let first = indexer();
  t.teardown(() => first.stop('SIGKILL'));
  const metrics = await metricsUrl(first);
  let text = '';
  await eventually('the indexer writes and reports', async () => {
    text = (await request(metrics)).text;
    return (sample(text, 'scoutkit_indexer_head_block{chain="31337"}') ?? 0) >= 2;
  });
  const head = sample(text, 'scoutkit_indexer_head_block{chain="31337"}') ?? -1;
  const nodeHead = sample(text, 'scoutkit_indexer_node_head_block{chain="31337"}') ?? -1;
  t.ok(nodeHead >= head, `node head ${nodeHead} ≥ indexed head ${head}`);
  t.ok((sample(text, 'scoutkit_indexer_lag_blocks{chain="31337"}') ?? -1) >= 0, 'lag');
  t.ok((sample(text, 'scoutkit_indexer_blocks_total{chain="31337"}') ?? 0) >= head, 'blocks written by the run (from block 0)');
  t.ok(sample(text, 'scoutkit_indexer_blocks_per_second{chain="31337"}') !== undefined, 'blocks/s');
  t.equal(sample(text, 'scoutkit_indexer_reorgs_total{chain="31337"}'), 0, 'no reorg');
  t.equal(sample(text, 'scoutkit_indexer_waits_total{on="node"}'), 0, 'no outage waited out');
  t.equal(sample(text, 'scoutkit_indexer_waiting{on="store"}'), 0);
  t.equal(sample(text, 'scoutkit_indexer_reads_held'), 0, 'no read held');
  t.equal(sample(text, 'scoutkit_indexer_lease_held'), 1, 'this indexer holds the store\'s lease');
  t.equal(sample(text, 'scoutkit_indexer_up'), 1);
  t.match(text, /# TYPE scoutkit_indexer_rpc_retries_total counter/, 'retries by kind (none so far)');
  t.match(text, /^scoutkit_process_resident_memory_bytes \d/m, 'process metrics');
  const health = await request(metrics.replace(/\/metrics$/, '/health'));
  t.same([health.status, health.json], [200, { status: 'ok' }], '/health while the run loop lives');
  t.equal((await request(metrics.replace(/\/metrics$/, '/nope'))).status, 404);

  const serve = startScoutkit(['serve', '--db', db, '--port', '0', '--no-docs', '--no-metrics', '--max-head-age', '3', '--log-format', 'json']);
  t.teardown(() => serve.stop('SIGKILL'));
  const url = String((await serve.waitFor((l) => l.msg === 'listening', 90_000)).url);
  await eventually('/ready 200 while the indexer follows', async () => (await request(`${url}/ready`)).status === 200);
  const ready = await request(`${url}/ready`);
  t.match(ready.json, { status: 'ready', chains: { '31337': { ready: true, highestBlock: Number, headAgeSeconds: Number, stale: false } } }, 'each chain with its head age');

  first.process.kill('SIGKILL');
  await first.exited;
  let stale = ready;
  await eventually('/ready 503 once the head stops moving', async () => {
    stale = await request(`${url}/ready`);
    return stale.status === 503;
  });
  t.match(stale.json, { status: 'unavailable', message: /chain\(s\) 31337/, chains: { '31337': { ready: false, stale: true } } }, 'the body names the chain');
  t.equal(stale.headers.get('retry-after'), '1');

  first = indexer();
  await metricsUrl(first);
  await eventually('/ready 200 once an indexer is back', async () => (await request(`${url}/ready`)).status === 200);
  t.pass('ready again');
  t.equal(await first.stop('SIGTERM'), 0, 'the indexer stops cleanly on SIGTERM');
  t.equal(await serve.stop('SIGTERM'), 0, 'serve stops cleanly');

  const lines = [...first.lines, ...serve.lines];
  t.ok(lines.length > 5, `${lines.length} lines`);
  t.same(lines.filter((l) => !isLogLine(l)), [], 'every line is JSON with time, level and msg');
  t.ok(first.lines.some((l) => l.msg === 'start' && l.chainId === 31337), 'the start line');
  t.ok(first.lines.some((l) => l.msg === 'indexed' && typeof l.indexedHead === 'number'), 'the summary line');
  t.ok(serve.lines.some((l) => l.msg === 'request' && l.path === '/ready' && l.ip === '127.0.0.1'), 'request lines');
});
