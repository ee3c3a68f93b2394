// The solc verifier's bounds and compilers: a time-capped job, a memory-capped worker, a full
// queue answering busy, identical jobs run once, a native solc (a shim) preferred, a missing
// version downloaded with its checksum checked, and offline a clear error.
import { createHash } from 'node:crypto';
import { readFile, rm, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import t from 'tap';
import { keccak256 } from 'viem';
import { CompilePool, CompilerDirectory, createSolcVerifier, defaultCompilersDir } from '../../../adapters/solc/index.ts';
import type { VerificationJob } from '../../../lib/contracts/verifier.ts';
import { hex } from '../../../lib/domain/hex.ts';
import { IMMUTABLES, compilerDir, solcShim, standardJson } from './fixture.ts';

const require = createRequire(import.meta.url);
const json = standardJson({ 'Immutables.sol': IMMUTABLES });
// the runtime code does not matter for the bounds: a mismatch is an answer like any other
const job = (name = 'Immutables'): VerificationJob => ({
  language: 'solidity',
  input: { kind: 'standard-json', json },
  compilerVersion: '0.8.37',
  contractName: name,
  deployedCode: hex('0x6080'),
});

const dirs: string[] = [];
t.teardown(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
const freshDir = async (versions?: Parameters<typeof compilerDir>[0]): Promise<string> => {
  const d = await compilerDir(versions);
  dirs.push(d);
  return d;
};

t.test('a time cap stops the worker; the pool serves on; identical jobs run once; a full queue is busy', async (t) => {
  const dir = await freshDir(['solc']);
  const verifier = createSolcVerifier({ compilers: { dir, download: false }, size: 1, queue: 1 });
  t.teardown(() => verifier.close());
  const compiler = await verifier.compilers.find('0.8.37');
  const capped = await verifier.pool.compile({ compiler, input: JSON.stringify(json) }, { timeoutMs: 50 });
  t.match(capped, { kind: 'error', reason: 'timeout', message: /longer than 0\.05 s/ });

  // a full queue is busy, decided when the call is made: one compile runs, one waits (size 1,
  // queue 1), the next is refused
  const request = { compiler, input: JSON.stringify(json) };
  t.notOk(verifier.busy?.(), 'idle: not busy');
  const running = verifier.pool.compile(request);
  const waiting = verifier.pool.compile(request);
  t.ok(verifier.busy?.(), 'the verifier says it is busy (submissions are refused at once)');
  t.match(await verifier.pool.compile(request), { kind: 'error', reason: 'busy', message: /queue is full/ });
  t.match(await running, { kind: 'output' }, 'compiled after the time-capped worker was replaced');
  await waiting;
  t.notOk(verifier.busy?.(), 'and no longer once they are done');

  const started = verifier.pool.started;
  const a = verifier.verify(job());
  const b = verifier.verify(job());
  t.equal(a, b, 'the same job in flight: one promise');
  t.match(await a, { status: 'failed', reason: 'mismatch' });
  t.equal(verifier.pool.started - started, 1, 'one compile for two identical calls');
  t.equal(verifier.pool.load, 0);
});

t.test('junk from a job does not hurt the pool: junk standard JSON reaches solc as an error', async (t) => {
  const dir = await freshDir(['solc']);
  const pool = new CompilePool({ size: 1 });
  t.teardown(() => pool.close());
  const compiler = await new CompilerDirectory({ dir, download: false }).find('0.8.37');
  const out = await pool.compile({ compiler, input: '{"language":"Solidity","sources":' });
  t.equal(out.kind, 'output');
  if (out.kind === 'output') t.match(JSON.parse(out.output), { errors: [{ severity: 'error' }] });
});

t.test('a memory cap: the worker runs out alone, a clear failure', async (t) => {
  const dir = await freshDir(['solc']);
  const verifier = createSolcVerifier({ compilers: { dir, download: false }, size: 1, memoryMb: 8 });
  t.teardown(() => verifier.close());
  const outcome = await verifier.verify(job());
  t.match(outcome, { status: 'failed', reason: 'out-of-memory', message: /out of memory \(cap 8 MB\)/ });
  t.equal(verifier.pool.load, 0);
});

t.test('a native solc in the directory is preferred (a shim running solc-js stands in)', async (t) => {
  const dir = await freshDir(['solc']);
  const shim = await solcShim(dir);
  const compilers = new CompilerDirectory({ dir, download: false });
  t.same(await compilers.find('v0.8.37'), { kind: 'native', path: shim });
  const verifier = createSolcVerifier({ compilers, size: 1 });
  t.teardown(() => verifier.close());
  const outcome = await verifier.verify(job('Missing'));
  t.match(outcome, { status: 'failed', reason: 'contract-not-found' }, 'compiled by the native compiler');
  if (outcome.status === 'failed' && outcome.reason !== 'contract-not-found') t.comment(outcome.message);
});

t.test('compilers: the default directory, downloads checked, offline a clear error', async (t) => {
  t.equal(defaultCompilersDir({ XDG_CACHE_HOME: '/x/cache' }), '/x/cache/scoutkit/compilers');
  t.match(defaultCompilersDir({}), /\.cache\/scoutkit\/compilers$/);

  const dir = await freshDir([]);
  const offline = new CompilerDirectory({
    dir,
    fetch: () => Promise.reject(new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND binaries.soliditylang.org') })),
  });
  await t.rejects(offline.find('v0.8.26+commit.8a97fa7a'), {
    name: 'CompilerUnavailableError',
    message: new RegExp(`v0\\.8\\.26\\+commit\\.8a97fa7a is not available \\(cannot reach https://binaries\\.soliditylang\\.org/bin/list\\.json: getaddrinfo ENOTFOUND.*put soljson-v0\\.8\\.26\\+commit\\.8a97fa7a\\.js .* in ${dir}`),
  });
  await t.rejects(new CompilerDirectory({ dir, download: false }).find('0.8.26'), { message: /downloads are off/ });

  const bytes = await readFile(require.resolve('solc-0.8.19/soljson.js'));
  const path = 'soljson-v0.8.19+commit.7dd6d404.js';
  const list = (sha256: string) => ({
    builds: [{ path, version: '0.8.19', longVersion: '0.8.19+commit.7dd6d404', sha256, keccak256: keccak256(bytes) }],
  });
  const serve = (sha256: string): typeof fetch => async (url) =>
    String(url).endsWith('/list.json') ? new Response(JSON.stringify(list(sha256))) : String(url).endsWith(`/${path}`) ? new Response(bytes) : new Response('', { status: 404 });
  const good = `0x${createHash('sha256').update(bytes).digest('hex')}`;
  await t.rejects(new CompilerDirectory({ dir, fetch: serve(`0x${'00'.repeat(32)}`) }).find('0.8.19'), { message: /sha256 .* differs/ });
  t.same(await readdir(dir), [], 'nothing kept from a bad download');
  t.same(await new CompilerDirectory({ dir, fetch: serve(good) }).find('0.8.19'), { kind: 'soljson', path: `${dir}/${path}` });
  t.same(await new CompilerDirectory({ dir, download: false }).find('v0.8.19+commit.7dd6d404'), { kind: 'soljson', path: `${dir}/${path}` }, 'then found locally');
  await t.rejects(new CompilerDirectory({ dir, fetch: serve(good) }).find('0.8.99'), { message: /no such version/ });
});
