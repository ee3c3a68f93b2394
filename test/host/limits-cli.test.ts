/**
 * The limits part of `scoutkit serve`: its flags, and a served process on the shared Redis with
 * a keys file (windowed plan, own 429 message).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import t from 'tap';
import { parseServeArgs } from '../../host/cli.ts';
import { limitHeaders, request } from './helpers.ts';
import { REDIS_URL, redisAnswers, serviceMissing } from './redis-support.ts';
import { scoutkitBin } from '../support/scoutkitBin.ts';

t.test('serve flags: --redis, --redis-prefix, --limiter-timeout', async (t) => {
  const args = parseServeArgs(['--db', 'memory:', '--redis', REDIS_URL, '--redis-prefix', 'team-a', '--limiter-timeout', '2500']);
  t.same([args.redis, args.redisPrefix, args.limiterTimeoutMs], [REDIS_URL, 'team-a', 2500]);
  const plain = parseServeArgs(['--db', 'memory:']);
  t.same([plain.redis, plain.redisPrefix, plain.limiterTimeoutMs], [undefined, undefined, undefined]);
  for (const bad of ['0', '-5', '1.5', 'soon', '']) {
    t.throws(() => parseServeArgs(['--db', 'memory:', `--limiter-timeout=${bad}`]), /--limiter-timeout expects milliseconds/, `"${bad}"`);
  }
});

t.test('scoutkit serve --redis --keys: the plan window, real headers, the configured 429', async (t) => {
  if (!(await redisAnswers(REDIS_URL))) return serviceMissing(t, `Redis at ${REDIS_URL}`);
  const dir = await mkdtemp(join(tmpdir(), 'scoutkit-limits-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const keys = join(dir, 'keys.json');
  const message = 'Easy there';
  await writeFile(
    keys,
    JSON.stringify({ plans: { p: { requests: 3, windowSeconds: 30, credits: 100 } }, keys: [{ key: 'cli-key', plan: 'p' }], rateLimitMessage: message }),
  );
  const prefix = `scoutkit-test-cli-${process.pid}-${Date.now()}`;
  const child = spawn(
    process.execPath,
    [...scoutkitBin(), 'serve', '--db', 'memory:fixture', '--port', '0', '--keys', keys, '--redis', REDIS_URL, '--redis-prefix', prefix, '--log-format', 'json'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  t.teardown(() => void child.kill('SIGTERM'));
  let url: string | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    const parsed = JSON.parse(line) as { msg?: string; url?: string };
    if (parsed.msg === 'listening') {
      url = parsed.url;
      break;
    }
  }
  t.ok(url, 'listening');
  child.stdout.resume();
  const get = () => request(`${url}/1/api/v2/blocks/1?apikey=cli-key`);
  const replies = [await get(), await get(), await get(), await get()];
  t.same(replies.map((r) => r.status), [200, 200, 200, 429]);
  t.same(replies.map((r) => limitHeaders(r).limit), [3, 3, 3, 3]);
  t.same(replies.map((r) => limitHeaders(r).remaining), [2, 1, 0, 0]);
  t.ok(replies.every((r) => limitHeaders(r).reset > 0 && limitHeaders(r).reset <= 30_000), 'reset within the 30 s window');
  t.same(replies[3]?.json, { message });
});
