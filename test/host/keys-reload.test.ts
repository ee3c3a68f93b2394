/**
 * `scoutkit serve` operations, in a child process: SIGHUP reloads the keys file (a key added, one
 * removed, a broken file keeps the old keys; the process lives on; the log names keys, never a
 * secret); request lines name the key and the client IP (X-Forwarded-For only with
 * --trust-proxy); SIGTERM lets an in-flight request finish before exiting 0.
 */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { eventually, startScoutkit } from './child.ts';
import type { Child } from './child.ts';
import { request } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'scoutkit-keys-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const keysFile = join(dir, 'keys.json');
const SECRETS = ['alice-s3cret-1', 'bob-s3cret-2', 'carol-s3cret-3'];
const writeKeys = (keys: readonly { key: string; name: string; plan?: string }[]): void =>
  writeFileSync(keysFile, JSON.stringify({ plans: { pro: { requestsPerSecond: 50, credits: 10_000 } }, keys }));

const serve = async (extra: readonly string[] = []): Promise<{ child: Child; url: string }> => {
  const child = startScoutkit(['serve', '--db', 'memory:fixture', '--port', '0', '--no-docs', '--no-metrics', '--keys', keysFile, '--log-format', 'json', ...extra]);
  const url = String((await child.waitFor((l) => l.msg === 'listening', 90_000)).url);
  answered = 0;
  return { child, url };
};
const blocks = (url: string, key: string) => request(`${url}/api/v2/blocks?apikey=${key}`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
const requestLines = (child: Child) => child.lines.filter((l) => l.msg === 'request');
/** the request line of the last request answered (its line may reach the pipe after the answer reached us) */
const lastRequestLine = async (child: Child) => {
  await eventually('the request line', async () => requestLines(child).length >= answered);
  return requestLines(child)[answered - 1];
};
let answered = 0;
const counted = async <T>(reply: Promise<T>): Promise<T> => {
  const r = await reply;
  answered++;
  return r;
};

t.test('SIGHUP reloads the keys; request lines name key and IP; SIGTERM drains', async (t) => {
  writeKeys([
    { key: 'alice-s3cret-1', name: 'alice' },
    { key: 'carol-s3cret-3', name: 'carol' },
  ]);
  const { child, url } = await serve();
  t.teardown(() => child.stop('SIGKILL'));
  t.equal((await counted(blocks(url, 'alice-s3cret-1'))).status, 200);
  t.match(await lastRequestLine(child), { path: '/api/v2/blocks', status: 200, key: 'alice', ip: '127.0.0.1' }, 'the key by name; the socket IP without --trust-proxy');
  t.equal((await counted(blocks(url, 'bob-s3cret-2'))).status, 401, 'bob is not known yet');
  t.notOk('key' in ((await lastRequestLine(child)) ?? {}), 'a refused key is not named');

  writeKeys([
    { key: 'bob-s3cret-2', name: 'bob', plan: 'pro' },
    { key: 'carol-s3cret-3', name: 'carol' },
  ]);
  child.process.kill('SIGHUP');
  const reloaded = await child.waitFor((l) => l.msg === 'keys reloaded');
  t.match(reloaded, { level: 'info', keys: 2, added: ['bob (pro)'], removed: ['alice (free)'], changed: [] }, 'what changed, by name and plan');
  t.equal((await counted(blocks(url, 'bob-s3cret-2'))).status, 200, 'an added key works');
  t.match(await lastRequestLine(child), { key: 'bob' });
  t.equal((await counted(blocks(url, 'alice-s3cret-1'))).status, 401, 'a removed key is refused');
  t.equal((await counted(blocks(url, 'carol-s3cret-3'))).status, 200, 'a kept key still works');

  writeFileSync(keysFile, '{"keys": [ broken');
  child.process.kill('SIGHUP');
  const refused = await child.waitFor((l) => l.msg === 'keys file not reloaded: the old keys stay');
  t.match(refused, { level: 'error', keys: 2, error: /cannot read keys file/ });
  t.equal(child.process.exitCode, null, 'SIGHUP never stops the server');
  t.equal((await counted(blocks(url, 'bob-s3cret-2'))).status, 200, 'the old keys stay');
  t.equal((await counted(blocks(url, 'alice-s3cret-1'))).status, 401);

  // SIGTERM with a request in flight: its body is still arriving when the signal comes
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(`${url}/api/eth-rpc`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.on('socket', (socket) => socket.once('connect', () => setTimeout(() => child.process.kill('SIGTERM'), 1000)));
    req.write(body.slice(0, 10));
    void child.waitFor((l) => l.msg === 'shutting down').then(() => setTimeout(() => req.end(body.slice(10)), 300));
  });
  const drained = await answer;
  t.equal(drained.status, 200, 'the in-flight request is answered');
  t.match(JSON.parse(drained.text), { jsonrpc: '2.0', id: 1, result: /^0x/ });
  t.equal(await child.exited, 0, 'then a clean exit');
  t.match(child.lines.at(-1), { msg: 'stopped' });
  t.notOk(SECRETS.some((s) => child.output().includes(s)), 'no secret ever logged');
});

t.test('--trust-proxy: the request line takes the IP from X-Forwarded-For', async (t) => {
  writeKeys([{ key: 'carol-s3cret-3', name: 'carol' }]);
  const { child, url } = await serve(['--trust-proxy']);
  t.teardown(() => child.stop('SIGKILL'));
  t.equal((await counted(blocks(url, 'carol-s3cret-3'))).status, 200);
  t.match(await lastRequestLine(child), { key: 'carol', ip: '203.0.113.7' });
  await counted(request(`${url}/api/v2/blocks`));
  t.match(await lastRequestLine(child), { ip: '127.0.0.1' }, 'without the header: the socket IP');
  t.notOk('key' in ((await lastRequestLine(child)) ?? {}), 'no key: none named');
  t.equal(await child.stop('SIGINT'), 0, 'SIGINT stops it cleanly');
});
