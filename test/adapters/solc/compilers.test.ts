/**
 * The compilers with no network and no setup: an empty compiler directory and a download base
 * that refuses (127.0.0.1:2, where nothing listens). The installed `solc` package's own build
 * serves its version — long (`v0.8.37+commit.…`), with or without the v, short — from
 * node_modules (no download, no copy), listed among the versions at hand; a listed package not installed is left out; no
 * packages: its version is missing too. A version not at hand fails naming it, why (the address
 * refused) and what to do. A 0.8.37 contract verifies so. $SCOUTKIT_SOLC_BINARIES sets the base.
 */
import { readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import t from 'tap';
import { hex } from '../../../lib/index.ts';
import { CompilerDirectory, CompilerUnavailableError, compilersBaseUrl, createSolcVerifier, SOLC_BINARIES } from '../../../adapters/solc/index.ts';
import { COUNTER, compilerVersion, emptyCompilerDir, offlineCompilers, REFUSING_URL } from '../../support/verification.ts';
import { buildOutput, standardJson } from './fixture.ts';

const require = createRequire(import.meta.url);
const LONG = compilerVersion(); // v0.8.37+commit.xxxxxxxx
const SHORT = LONG.replace(/^v/, '').replace(/\+.*$/, '');
const soljson = require.resolve('solc/soljson.js');

const dir = await emptyCompilerDir();
t.teardown(() => rm(dir, { recursive: true, force: true }));

t.test("the solc package's own version: no download, no copy", async (t) => {
  const compilers = new CompilerDirectory(offlineCompilers(dir));
  for (const version of [LONG, LONG.slice(1), SHORT, `v${SHORT}`]) {
    t.same(await compilers.find(version), { kind: 'soljson', path: soljson }, `${version}: node_modules' soljson.js`);
  }
  t.same(await readdir(dir), [], 'nothing copied into the directory');
  t.same(await compilers.installed(), [`v${SHORT}`], 'listed at hand');
  t.same(new CompilerDirectory({ ...offlineCompilers(dir), packages: [] }).packages, [], 'no packages: none');
  t.same(new CompilerDirectory({ ...offlineCompilers(dir), packages: ['solc', 'no-such-solc-package'] }).packages.map((p) => p.version), [SHORT], 'a package not installed: left out');
  const both = new CompilerDirectory({ ...offlineCompilers(dir), packages: ['solc', 'solc-0.8.19'] });
  t.same(await both.find('0.8.19'), { kind: 'soljson', path: require.resolve('solc-0.8.19/soljson.js') }, 'another package: its version');
});

t.test('a version not at hand, offline: the failure names it, why and what to do', async (t) => {
  const compilers = new CompilerDirectory(offlineCompilers(dir));
  const error = await compilers.find('v0.8.26+commit.8a97fa7a').then(
    () => null,
    (e: unknown) => e,
  );
  t.type(error, CompilerUnavailableError);
  const message = (error as Error).message;
  t.match(message, /^Compiler v0\.8\.26\+commit\.8a97fa7a is not available \(cannot reach http:\/\/127\.0\.0\.1:2\/list\.json: .*ECONNREFUSED/, 'the version, and the address that refused');
  t.match(message, `put soljson-v0.8.26+commit.8a97fa7a.js (from ${SOLC_BINARIES}/ or npm's solc@0.8.26 soljson.js) or a native solc-0.8.26 in ${dir}`, 'where to put which file');
  t.match(message, `or compile with v${SHORT} (at hand without a download)`, 'and the version at hand');
  const none = new CompilerDirectory({ ...offlineCompilers(dir), packages: [] });
  await t.rejects(none.find(LONG), { message: new RegExp(`^Compiler ${LONG.replace(/[.+]/g, '\\$&')} is not available \\(cannot reach`) }, 'without the package, its version downloads (and fails offline)');
});

t.test('a 0.8.37 contract verifies with an empty directory and no network', async (t) => {
  const verifier = createSolcVerifier({ compilers: offlineCompilers(dir), size: 1 });
  t.teardown(() => verifier.close());
  const input = standardJson({ 'Counter.sol': COUNTER });
  const out = buildOutput(input).output as { contracts: Record<string, Record<string, { evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>> };
  const counter = out.contracts['Counter.sol']?.['Counter'];
  if (counter === undefined) throw new Error('Counter not compiled');
  const outcome = await verifier.verify({
    language: 'solidity',
    input: { kind: 'standard-json', json: input },
    compilerVersion: LONG,
    contractName: 'Counter.sol:Counter',
    deployedCode: hex(`0x${counter.evm.deployedBytecode.object}`),
    creationInput: hex(`0x${counter.evm.bytecode.object}`),
  });
  t.match(outcome, { status: 'verified', match: 'full', compilerVersion: LONG }, 'verified, full match');
  t.same(await readdir(dir), [], 'still nothing in the directory');
  t.match(await verifier.verify({ language: 'solidity', input: { kind: 'standard-json', json: input }, compilerVersion: 'v0.8.26+commit.8a97fa7a', contractName: 'Counter', deployedCode: hex(`0x${counter.evm.deployedBytecode.object}`) }), {
    status: 'failed',
    reason: 'unknown-compiler',
    message: /^Compiler v0\.8\.26\+commit\.8a97fa7a is not available \(cannot reach http:\/\/127\.0\.0\.1:2/,
  }, 'another version fails with the reason');
});

t.test('the download base', async (t) => {
  t.equal(compilersBaseUrl(undefined, {}), SOLC_BINARIES, 'default: the official list');
  t.equal(compilersBaseUrl(undefined, { SCOUTKIT_SOLC_BINARIES: `${REFUSING_URL}/bin/` }), `${REFUSING_URL}/bin`, '$SCOUTKIT_SOLC_BINARIES');
  t.equal(compilersBaseUrl('http://mirror/solc', { SCOUTKIT_SOLC_BINARIES: REFUSING_URL }), 'http://mirror/solc', 'the option first');
});
