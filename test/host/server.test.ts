/**
 * The standalone server and the CLI: /health, /ready, the request log, graceful shutdown.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import t from 'tap';
import { createServer } from '../../host/index.ts';
import type { RequestLogLine } from '../../host/index.ts';
import { main, parseServeArgs } from '../../host/cli.ts';
import { openStore, redact } from '../../host/stores.ts';
import { createExplorer } from '../../lib/index.ts';
import type { DataSource } from '../../lib/index.ts';
import { fixtureChains, limitHeaders, request } from './helpers.ts';
import { scoutkitBin } from '../support/scoutkitBin.ts';

const { chain1, chain5, facts } = await fixtureChains();

t.test('health, readiness, fallback 404, request log', async (t) => {
  const lines: RequestLogLine[] = [];
  const broken: DataSource = { ...chain5, getHighestBlockNumber: () => Promise.reject(new Error('db down: postgres://u:pw@db')) };
  const plan = { name: 'p', requestsPerSecond: 100, credits: 100, creditPeriod: 'day' as const };
  const server = createServer({ chains: { '1': chain1, '5': chain5 }, keys: [{ key: 'top-secret', plan }], log: (l) => lines.push(l) });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());

  t.same((await request(`${url}/health`)).json, { status: 'ok' });
  const ready = await request(`${url}/ready`);
  t.equal(ready.status, 200);
  t.match(ready.json, {
    status: 'ready',
    chains: { '1': { ready: true, highestBlock: facts.headBlockNumber, headAgeSeconds: Number, headMovedSecondsAgo: null }, '5': { ready: true, highestBlock: null } },
  });
  const missing = await request(`${url}/nothing-here?apikey=top-secret`);
  t.equal(missing.status, 404);
  t.same(missing.json, { message: 'Page not found' });

  await request(`${url}/api/v2/blocks?apikey=top-secret&key=other-secret`);
  await request(`${url}/5/api/v2/blocks`, { headers: { 'x-api-key': 'wrong-secret' } });
  const logged = JSON.stringify(lines);
  t.notOk(logged.includes('secret'), 'no key in the log');
  t.match(lines.at(-2), { method: 'GET', path: '/api/v2/blocks', status: 200, chain: '1' });
  t.match(lines.at(-1), { method: 'GET', path: '/5/api/v2/blocks', status: 401, chain: '5' });
  t.ok(lines.every((l) => typeof l.ms === 'number' && typeof l.time === 'string'));

  const unready = createServer({ chains: { '1': chain1, '5': broken }, log: false });
  const second = await unready.listen(0);
  t.teardown(() => unready.close());
  const notReady = await request(`${second.url}/ready`);
  t.equal(notReady.status, 503);
  t.match(notReady.json, { status: 'unavailable', chains: { '1': { ready: true, highestBlock: facts.headBlockNumber }, '5': { ready: false } } });
  t.same(Object.keys((notReady.json as { chains: Record<string, object> }).chains['5'] ?? {}), ['ready'], 'a failing store: nothing more said');
  t.notOk(notReady.text.includes('pw'), 'store errors are not described');
});

t.test("one map of chains: /ready and the metrics read the explorer's chains", async (t) => {
  // a ready-made explorer serving more chains than the server's options name
  const explorer = createExplorer({ chains: { '1': chain1, '5': chain5 } });
  const server = createServer({ chains: { '1': chain1 }, explorer, log: false });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  const ready = await request(`${url}/ready`);
  t.same(Object.keys((ready.json as { chains: object }).chains), ['1', '5'], "/ready: the explorer's chains");
  t.equal(explorer.chains?.['5']?.store, chain5);
  await request(`${url}/5/api/v2/blocks`);
  const scrape = await (await fetch(`${url}/metrics`)).text();
  t.match(scrape, /chain="5"/, "metrics: the explorer's chains label their requests");
  t.notMatch(scrape, /chain="unknown"/);
});

t.test('graceful close: in-flight requests finish, then the stores close', async (t) => {
  const events: string[] = [];
  const slow: DataSource = {
    ...chain1,
    listBlocks: async (filter, page) => {
      events.push('query started');
      await new Promise((r) => setTimeout(r, 300));
      events.push('query done');
      return chain1.listBlocks(filter, page);
    },
  };
  const server = createServer({
    chains: { '1': slow },
    log: false,
    onClose: async () => {
      events.push('stores closed');
    },
  });
  const { url } = await server.listen(0);
  const inFlight = request(`${url}/api/v2/blocks`);
  while (!events.includes('query started')) await new Promise((r) => setTimeout(r, 10));
  const closed = server.close();
  const reply = await inFlight;
  t.equal(reply.status, 200, 'the in-flight request is answered');
  t.equal(reply.headers.get('connection'), 'close');
  await closed;
  t.same(events, ['query started', 'query done', 'stores closed']);
  await t.rejects(fetch(`${url}/health`), 'no longer accepting');
});

t.test('serve arguments and store URLs', async (t) => {
  t.same(parseServeArgs(['--db', 'memory:', '--chain', '5=memory:', '--chain', '10=sqlite:/x.db', '--port', '0']), {
    db: 'memory:',
    // no defaultChain: the --db store's recorded id, read at start (test/host/served-chain.test.ts)
    chains: [
      ['5', 'memory:'],
      ['10', 'sqlite:/x.db'],
    ],
    port: 0,
    host: '127.0.0.1',
    openMultichain: false,
    trustProxy: false,
    compress: true,
    rpc: [],
  });
  t.equal(parseServeArgs(['--chain', '8=memory:']).defaultChain, '8');
  const withNodes = parseServeArgs(['--db', 'memory:', '--default-chain', '7', '--rpc', 'http://127.0.0.1:8545', '--rpc', '5=https://node.example/rpc', '--public-url', 'https://gw.example']);
  t.same([withNodes.rpc, withNodes.publicUrl], [[['7', 'http://127.0.0.1:8545'], ['5', 'https://node.example/rpc']], 'https://gw.example'], '--rpc [<id>=]<url>, --public-url');
  t.same(parseServeArgs(['--db', 'memory:', '--rpc', 'http://127.0.0.1:8545']).rpc, [[undefined, 'http://127.0.0.1:8545']], '--rpc without an id: the default chain, once known');
  t.same([parseServeArgs(['--db', 'memory:', '--cors', 'https://a.example, http://localhost:5173']).cors, parseServeArgs(['--db', 'memory:', '--no-cors']).cors, parseServeArgs(['--db', 'memory:']).cors], [['https://a.example', 'http://localhost:5173'], false, undefined], '--cors, --no-cors');
  t.throws(() => parseServeArgs(['--db', 'memory:', '--cors', '*', '--no-cors']), /not both/);
  t.equal(parseServeArgs(['--db', 'memory:', '--no-compress']).compress, false, '--no-compress');
  t.throws(() => parseServeArgs(['--db', 'memory:', '--cors', 'a.example']), /not an origin/);
  t.throws(() => parseServeArgs(['--db', 'memory:', '--rpc', '5=nope']), /--rpc expects/);
  t.throws(() => parseServeArgs(['--db', 'memory:', '--public-url', 'gw']), /--public-url expects/);
  t.throws(() => parseServeArgs([]), /--db/);
  t.throws(() => parseServeArgs(['--db', 'memory:', '--chain', 'nope']), /<id>=<db url>/);
  t.throws(() => parseServeArgs(['--db', 'memory:', '--port', 'x']), /not a port/);
  t.throws(() => parseServeArgs(['--db', 'memory:', '--bogus']), /bogus/);
  const replicated = parseServeArgs(['--db', 'postgres://p/x', '--read-db', 'postgres://r1/x', '--read-db', 'postgresql://r2/x', '--max-replica-lag', '2.5']);
  t.same([replicated.readDb, replicated.maxReplicaLagSeconds], [['postgres://r1/x', 'postgresql://r2/x'], 2.5], '--read-db (repeatable), --max-replica-lag');
  t.throws(() => parseServeArgs(['--chain', '5=postgres://p/x', '--read-db', 'postgres://r/x']), /give --db/);
  t.throws(() => parseServeArgs(['--db', 'postgres://p/x', '--read-db', 'sqlite:/r.db']), /--read-db expects a postgres/);
  t.throws(() => parseServeArgs(['--db', 'postgres://p/x', '--max-replica-lag', '5']), /give at least one/);
  t.throws(() => parseServeArgs(['--db', 'postgres://p/x', '--read-db', 'postgres://r/x', '--max-replica-lag', '0']), /--max-replica-lag expects seconds/);
  await t.rejects(openStore('sqlite::memory:', { readUrls: ['postgres://r/x'] }), /read replicas need a Postgres store/);
  await t.rejects(openStore('mysql://x'), /unsupported store URL/);
  t.equal(redact('postgres://user:pw@db:5432/x'), 'postgres://user:***@db:5432/x');
  const memory = await openStore('memory:');
  t.equal(await memory.source.getHighestBlockNumber(), null);
});

t.test('scoutkit serve: keys file, two chains, SIGTERM', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'scoutkit-cli-'));
  const keysFile = join(dir, 'keys.json');
  await writeFile(
    keysFile,
    JSON.stringify({
      plans: { pro: { requestsPerSecond: 20, credits: 500, creditPeriod: 'month' } },
      keys: [{ key: 'cli-key', plan: 'pro', name: 'tester' }],
    }),
  );
  const child = spawn(process.execPath, [...scoutkitBin(), 'serve', '--db', 'memory:fixture', '--chain', '5=memory:', '--port', '0', '--keys', keysFile, '--log-format', 'json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      lines.push(parsed);
      if (parsed.msg === 'listening') resolve(String(parsed.url));
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await listening;
  const blocks = await request(`${url}/5/api/v2/blocks`, { headers: { authorization: 'Bearer cli-key' } });
  t.equal(blocks.status, 200);
  t.same(limitHeaders(blocks), { limit: 20, remaining: 19, reset: limitHeaders(blocks).reset, credits: 499 });
  t.equal((await request(`${url}/api/v2/blocks/${facts.headBlockNumber}`)).status, 200, 'memory:fixture on the default chain');
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number];
  t.equal(code, 0, `clean exit (${stderr})`);
  t.match(lines.at(-1), { msg: 'stopped' });
  t.ok(lines.some((l) => l.path === '/5/api/v2/blocks' && l.status === 200 && l.chain === '5'), 'request logged');
  t.notOk(JSON.stringify(lines).includes('cli-key'), 'the key is never logged');
});

t.test('scoutkit --help and errors', async (t) => {
  const run = async (args: string[]) => {
    const child = spawn(process.execPath, [...scoutkitBin(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    return { code, out };
  };
  const captured = async (args: string[]) => {
    let out = '';
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => ((out += String(chunk)), true)) as typeof process.stdout.write;
    try {
      return { code: await main(args), out };
    } finally {
      process.stdout.write = write;
    }
  };
  const help = await captured(['--help']);
  t.equal(help.code, 0);
  t.match(help.out, /serve/);
  const serveHelp = await captured(['serve', '--help']);
  t.equal(serveHelp.code, 0);
  t.match(serveHelp.out, /--keys <file>/);
  const bad = await run(['serve', '--db', 'nope:']);
  t.equal(bad.code, 1);
  t.match(bad.out, /unsupported store URL "nope:"/);
  const strayNode = await run(['serve', '--db', 'memory:', '--chain', '5=memory:', '--rpc', '5=http://127.0.0.1:1', '--rpc', '9=http://127.0.0.1:1', '--port', '0']);
  t.equal(strayNode.code, 1);
  t.match(strayNode.out, /--rpc names chain 9, which is not served/, 'a node for a chain not served');
});
