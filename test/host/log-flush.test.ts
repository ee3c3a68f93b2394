/**
 * `scoutkit serve`'s log is buffered (host/log.ts: pino's asynchronous destination), and loses no
 * line: a SIGTERM under load (a few thousand requests from 32 connections, the signal once a third
 * are answered) leaves, for every request that got an answer, its request line, in the JSON
 * format and in the text format, each line shaped as before. Lines still held when a process dies
 * of an uncaught error are written out on its way out.
 *
 * Each request is told apart by its client address: `--trust-proxy` and an X-Forwarded-For of its
 * own (the request line names the client's address, never a query string).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { startScoutkit } from './child.ts';
import type { Child, LogLine } from './child.ts';
import { request } from './helpers.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const KEY = 'flush-key';
const dir = mkdtempSync(join(tmpdir(), 'scoutkit-log-flush-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const keysFile = join(dir, 'keys.json');
writeFileSync(keysFile, JSON.stringify({ plans: { load: { requestsPerSecond: 1_000_000, credits: 1_000_000_000 } }, keys: [{ key: KEY, name: 'load', plan: 'load' }] }));

/** a request line, as either format says it */
interface RequestLine {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly ip: string;
}

/** the client address of request `i`, one of its own */
const ipOf = (i: number): string => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

interface Load {
  /** client address → what it asked and the status it got, for every request answered */
  readonly answered: Map<string, { path: string; status: number }>;
  /** answers that came after the signal was sent */
  readonly afterSignal: number;
  readonly failed: number;
}

/**
 * `total` GETs over `connections` keep-alive connections, cycling through `paths`; SIGTERM to
 * the child once `signalAt` are answered. Requests refused or cut once the server closes count
 * as failed.
 */
async function load(url: string, child: Child, paths: readonly string[], total: number, signalAt: number, connections = 32): Promise<Load> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const answered = new Map<string, { path: string; status: number }>();
  let next = 0;
  let failed = 0;
  let signalled = false;
  let afterSignal = 0;
  const one = (i: number): Promise<void> =>
    new Promise((resolve) => {
      const path = paths[i % paths.length] ?? '/health';
      const ip = ipOf(i);
      const req = httpRequest(`${url}${path}`, { agent, headers: { 'x-api-key': KEY, 'x-forwarded-for': ip } }, (res) => {
        res.resume();
        res.on('end', () => {
          answered.set(ip, { path, status: res.statusCode ?? 0 });
          if (signalled) afterSignal++;
          if (!signalled && answered.size >= signalAt) {
            signalled = true;
            child.process.kill('SIGTERM');
          }
          resolve();
        });
        res.on('error', () => {
          failed++;
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end();
    });
  const worker = async (): Promise<void> => {
    while (next < total) await one(next++);
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  return { answered, afterSignal, failed };
}

/** serve in `format` under load, SIGTERM half-way; its request lines and its other lines once it is gone */
async function serveUnderLoad(
  t: Test,
  format: 'json' | 'text',
  total: number,
  parse: (line: LogLine) => RequestLine | undefined,
): Promise<{ loaded: Load; requests: RequestLine[]; lines: readonly LogLine[]; code: number | string }> {
  const child = startScoutkit(['serve', '--db', 'memory:fixture', '--port', '0', '--no-docs', '--no-metrics', '--trust-proxy', '--keys', keysFile, '--log-format', format]);
  // every line read: the pipes are closed once the child is gone and its lines consumed
  const closed = once(child.process, 'close');
  t.teardown(() => child.stop('SIGKILL'));
  const listening = await child.waitFor((l) => l.msg === 'listening' || /^\S+ info +listening /.test(String(l.unparsed ?? '')), 90_000);
  const url = String(listening.url ?? /url=(\S+)/.exec(String(listening.unparsed))?.[1]);
  const list = await request(`${url}/api/v2/transactions`, { headers: { 'x-api-key': KEY } });
  const hash = (list.json as { items: { hash: string }[] }).items[0]?.hash;
  t.ok(hash, 'a transaction of the fixture');
  // a cached detail and a list (the fast path), the server's own /health (Koa's chain), a 404
  const paths = [`/api/v2/transactions/${hash}`, '/api/v2/blocks', '/health', '/api/v2/no-such-thing'];
  const loaded = await load(url, child, paths, total, Math.floor(total / 3));
  const code = await child.exited;
  await closed;
  const requests = child.lines.flatMap((l) => parse(l) ?? []);
  return { loaded, requests, lines: child.lines, code };
}

/** every request answered has exactly one line, naming its path and its status */
function checkEveryAnswerLogged(t: Test, loaded: Load, requests: readonly RequestLine[]): void {
  const byIp = new Map<string, RequestLine[]>();
  for (const r of requests) byIp.set(r.ip, [...(byIp.get(r.ip) ?? []), r]);
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const [ip, { path, status }] of loaded.answered) {
    const seen = byIp.get(ip) ?? [];
    if (seen.length === 0) missing.push(`${ip} ${path}`);
    else if (seen.length > 1 || seen[0]?.path !== path || seen[0]?.status !== status || seen[0]?.method !== 'GET') wrong.push(`${ip}: ${JSON.stringify(seen)}`);
  }
  t.comment(`${loaded.answered.size} answered (${loaded.afterSignal} after the signal), ${loaded.failed} refused or cut once closing; ${requests.length} request lines`);
  t.ok(loaded.answered.size >= 1, 'requests were answered');
  t.same(missing, [], 'every answered request has its line');
  t.same(wrong, [], 'one line each, with its path and status');
}

t.test('json: SIGTERM under load, every answered request has its line', async (t) => {
  const parse = (l: LogLine): RequestLine | undefined => (l.msg === 'request' ? (l as LogLine & RequestLine) : undefined);
  const { loaded, requests, lines, code } = await serveUnderLoad(t, 'json', 3000, parse);
  t.equal(code, 0, 'a clean exit');
  checkEveryAnswerLogged(t, loaded, requests);
  t.same(
    lines.filter((l) => 'unparsed' in l || typeof l.time !== 'string' || typeof l.level !== 'string' || typeof l.msg !== 'string'),
    [],
    'every line is JSON with time, level and msg',
  );
  const detail = lines.find((l) => l.msg === 'request' && String(l.path).startsWith('/api/v2/transactions/'));
  t.same(Object.keys(detail ?? {}), ['time', 'level', 'msg', 'method', 'path', 'status', 'ms', 'chain', 'key', 'ip'], 'the fields, in their order');
  t.match(detail, { level: 'info', method: 'GET', status: 200, ms: Number, chain: '1', key: 'load', ip: /^10\./ });
  t.ok(lines.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM'), 'the signal is logged');
  t.match(lines.filter((l) => l.level === 'info').at(-1), { msg: 'stopped' }, 'stopped: the last line');
});

t.test('text: SIGTERM under load, every answered request has its line', async (t) => {
  const LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) info  request method=(\S+) path=(\S+) status=(\d+) ms=(\d+(?:\.\d+)?)(?: chain=(\S+))?(?: key=(\S+))? ip=(\S+)$/;
  const parse = (l: LogLine): RequestLine | undefined => {
    const m = LINE.exec(String(l.unparsed ?? ''));
    return m === null ? undefined : { method: m[2] ?? '', path: m[3] ?? '', status: Number(m[4]), ip: m[8] ?? '' };
  };
  const { loaded, requests, lines, code } = await serveUnderLoad(t, 'text', 1500, parse);
  t.equal(code, 0, 'a clean exit');
  checkEveryAnswerLogged(t, loaded, requests);
  const text = lines.map((l) => String(l.unparsed));
  t.same(
    text.filter((l) => !/^\d{4}-\d\d-\d\dT\S+Z (info |warn |error) \S/.test(l)),
    [],
    'every line is text: time, level, message',
  );
  t.ok(
    text.some((l) => / info  request method=GET path=\/api\/v2\/transactions\/0x[0-9a-f]{64} status=200 ms=\S+ chain=1 key=load ip=10\./.test(l)),
    'a detail line, its fields in their order',
  );
  t.match(text.filter((l) => / info  /.test(l)).at(-1), / info  stopped$/, 'stopped: the last line');
});

t.test('lines held when the process dies of an uncaught error are written out', async (t) => {
  // fewer than a batch (host/log.ts HOLD_CHARS), in the same tick as the error: all still held
  const LINES = 3000;
  const script = [
    "import { processOutput } from './host/log.ts';",
    'const out = processOutput(1);',
    `for (let i = 0; i < ${LINES}; i++) out.write(\`line \${i}\\n\`);`,
    "throw new Error('fatal');",
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  t.equal(code, 1, 'the process died');
  t.match(err, /Error: fatal/);
  const lines = out.split('\n').filter((l) => l !== '');
  t.same(lines, Array.from({ length: LINES }, (_, i) => `line ${i}`), 'every line written out, in order');
});

t.test('an unexpected error is told through the same buffered output (stderr), and written out on exit', async (t) => {
  const script = [
    "import { reportUnexpected } from './host/pipeline/log.ts';",
    "reportUnexpected(new Error('boom'), { method: 'GET', path: '/api/v2/blocks' });",
    // a synchronous write after it: out first, since the error's line is held
    "process.stderr.write('after\\n');",
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  t.equal(code, 0);
  const lines = err.split('\n').filter((l) => l !== '');
  t.equal(lines.length, 2, 'two lines');
  t.equal(lines[0], 'after', 'not written at once: held by the buffered output');
  const line = JSON.parse(lines[1] ?? '{}') as Record<string, unknown>;
  t.same(Object.keys(line), ['level', 'method', 'path', 'error'], 'its fields, in order');
  t.match(line, { level: 'error', method: 'GET', path: '/api/v2/blocks', error: /^Error: boom\n/ });
});
