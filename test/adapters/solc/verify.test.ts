// The solc verifier against contracts compiled by solc-js and deployed to anvil: constructor
// arguments recovered, a linked library, immutables, an EIP-1967 proxy and its implementation,
// the single-file form, a partial match, mismatches and bad input, two compiler versions.
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import t from 'tap';
import { startAnvil } from '../../../demo/anvil.ts';
import type { Anvil } from '../../../demo/anvil.ts';
import { createSolcVerifier } from '../../../adapters/solc/index.ts';
import type { VerificationJob, VerificationOutcome } from '../../../lib/contracts/verifier.ts';
import type { Hex } from '../../../lib/domain/records.ts';
import { address, EMPTY_HEX, hex } from '../../../lib/domain/hex.ts';
import {
  IMMUTABLES,
  PROXY,
  SOURCES,
  TOKEN,
  build,
  compilerDir,
  deploy,
  link,
  proxyArgs,
  solcVersion,
  standardJson,
  tokenArgs,
} from './fixture.ts';
import type { Deployed } from './fixture.ts';

let anvil: Anvil;
let dir: string;
let verifier: ReturnType<typeof createSolcVerifier>;
// one file per compile: a verification compiles what the deployment compiled, and no more
const inputs = Object.fromEntries(Object.entries(SOURCES).map(([file, text]) => [file, standardJson({ [file]: text })]));
const built = Object.assign({}, ...Object.values(inputs).map((i) => build(i))) as ReturnType<typeof build>;
const FILE: Record<string, keyof typeof SOURCES> = {
  token: 'src/Token.sol',
  lib: 'src/MathLib.sol',
  usesLib: 'src/MathLib.sol',
  immutables: 'src/Immutables.sol',
  impl: 'src/Proxy.sol',
  proxy: 'src/Proxy.sol',
};
const deployed: Record<string, Deployed> = {};
const times: number[] = [];

const need = <T>(v: T | undefined, what: string): T => {
  if (v === undefined) throw new Error(`missing ${what}`);
  return v;
};
const bytecode = (name: string): string => need(built[name], name).bytecode;

t.before(async () => {
  anvil = await startAnvil();
  dir = await compilerDir();
  verifier = createSolcVerifier({ compilers: { dir, download: false }, size: 1 });
  deployed['token'] = await deploy(anvil.url, bytecode('src/Token.sol:Token'), tokenArgs());
  deployed['lib'] = await deploy(anvil.url, bytecode('src/MathLib.sol:MathLib'));
  deployed['usesLib'] = await deploy(anvil.url, link(bytecode('src/MathLib.sol:UsesLib'), need(deployed['lib'], 'lib').address));
  deployed['immutables'] = await deploy(anvil.url, bytecode('src/Immutables.sol:Immutables'), hex(`0x${(1234n).toString(16).padStart(64, '0')}`));
  deployed['impl'] = await deploy(anvil.url, bytecode('src/Proxy.sol:Implementation'));
  const impl = need(deployed['impl'], 'impl');
  deployed['proxy'] = await deploy(anvil.url, bytecode('src/Proxy.sol:Proxy1967'), proxyArgs(impl.address, need(built['src/Proxy.sol:Implementation'], 'impl').abi));
});

t.teardown(async () => {
  await verifier?.close();
  await anvil?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  t.comment(`verification times (solc-js ${solcVersion('solc')}, warm worker), ms: ${times.map((x) => Math.round(x)).join(', ')}; p50 ${Math.round([...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0)}`);
});

const job = (name: string, at: string, extra: Partial<VerificationJob> = {}): VerificationJob => {
  const d = need(deployed[at], at);
  const json = need(inputs[need(FILE[at], at)], at);
  return { language: 'solidity', input: { kind: 'standard-json', json }, compilerVersion: '0.8.37', contractName: name, deployedCode: d.code, creationInput: d.input, ...extra };
};

async function verify(j: VerificationJob): Promise<VerificationOutcome> {
  const start = performance.now();
  const outcome = await verifier.verify(j);
  times.push(performance.now() - start);
  return outcome;
}

function verified(t: { pass(message: string): boolean }, outcome: VerificationOutcome): Extract<VerificationOutcome, { status: 'verified' }> {
  if (outcome.status !== 'verified') throw new Error(`not verified: ${outcome.reason}: ${outcome.message}`);
  t.pass(`verified ${outcome.name}`);
  return outcome;
}

t.test('an ERC-20 with constructor arguments: the arguments recovered from the creation input', async (t) => {
  const v = verified(t, await verify(job('src/Token.sol:Token', 'token')));
  t.equal(v.match, 'full');
  t.equal(v.runtimeMatch, 'full');
  t.equal(v.creationMatch, 'full');
  t.equal(v.constructorArguments, tokenArgs().slice(2));
  t.equal(v.file, 'src/Token.sol');
  t.equal(v.license, 'MIT');
  t.match(v.compilerVersion, /^v0\.8\.37\+commit\.[0-9a-f]{8}$/);
  t.equal(v.optimization, true);
  t.equal(v.optimizationRuns, 200);
  t.equal(v.evmVersion, 'cancun');
  t.same(v.sources, { 'src/Token.sol': TOKEN });
  t.ok(v.abi.some((item) => item.type === 'function' && item.name === 'transfer'));

  const given = verified(t, await verify(job('Token', 'token', { constructorArguments: `0x${tokenArgs().slice(2)}` })));
  t.equal(given.constructorArguments, tokenArgs().slice(2), 'given arguments, name without path');
  const wrong = await verify(job('Token', 'token', { constructorArguments: '00'.repeat(32) }));
  t.match(wrong, { status: 'failed', reason: 'constructor-arguments', message: /^Fail - Unable to verify/ });
  const noCreation = verified(t, await verify(job('Token', 'token', { creationInput: undefined, constructorArguments: tokenArgs() })));
  t.equal(noCreation.runtimeMatch, 'full');
  t.equal(noCreation.creationMatch, null, 'no creation input: runtime only');
});

t.test('a linked library: its address read off the deployed code; the library itself', async (t) => {
  const lib = need(deployed['lib'], 'lib');
  const v = verified(t, await verify(job('src/MathLib.sol:UsesLib', 'usesLib')));
  t.equal(v.match, 'full');
  t.same(v.libraries, { 'src/MathLib.sol:MathLib': lib.address });
  t.equal(v.license, 'Apache-2.0');
  const givenLib = verified(t, await verify(job('UsesLib', 'usesLib', { libraries: { MathLib: lib.address } })));
  t.same(givenLib.libraries, { 'src/MathLib.sol:MathLib': lib.address });
  const wrongLib = await verify(job('UsesLib', 'usesLib', { libraries: { MathLib: address('0x00000000000000000000000000000000000000aa') } }));
  t.match(wrongLib, { status: 'failed', reason: 'mismatch' }, 'a wrong library address does not match');
  const library = verified(t, await verify(job('MathLib', 'lib')));
  t.equal(library.match, 'full', 'a library (its call-protection address masked)');
});

t.test('immutables: masked, their values reported', async (t) => {
  const v = verified(t, await verify(job('Immutables', 'immutables')));
  t.equal(v.match, 'full');
  t.equal(v.runtimeMatch, 'full');
  const values = Object.values(v.immutables);
  t.equal(values.length, 2);
  t.ok(values.includes(`0x${(1234n).toString(16).padStart(64, '0')}` as Hex), 'limit = 1234');
  t.equal(v.constructorArguments, (1234n).toString(16).padStart(64, '0'));
});

t.test('an EIP-1967 proxy and its implementation', async (t) => {
  const impl = verified(t, await verify(job('src/Proxy.sol:Implementation', 'impl')));
  t.equal(impl.match, 'full');
  const proxy = verified(t, await verify(job('src/Proxy.sol:Proxy1967', 'proxy')));
  t.equal(proxy.match, 'full');
  t.equal(proxy.constructorArguments, proxyArgs(need(deployed['impl'], 'impl').address, impl.abi).slice(2));
});

t.test('the single-file form (flattened code)', async (t) => {
  const v = verified(
    t,
    await verify(job('Immutables', 'immutables', { input: { kind: 'single-file', source: IMMUTABLES, optimization: true, runs: 200, evmVersion: 'cancun' } })),
  );
  t.equal(v.file, 'Immutables.sol');
  t.equal(v.match, 'partial', 'deployed from src/Immutables.sol: the file name is in the metadata, so only a partial match');
  const unoptimised = await verify(job('Immutables', 'immutables', { input: { kind: 'single-file', source: IMMUTABLES, optimization: false, evmVersion: 'cancun' } }));
  t.match(unoptimised, { status: 'failed', reason: 'mismatch' }, 'other settings, other code');
});

t.test('a partial match: the same code with a changed comment (only the metadata differs)', async (t) => {
  const changed = standardJson({ 'src/Token.sol': TOKEN.replace('contract Token {', '/// a comment the deployed code never saw\ncontract Token {') });
  const v = verified(t, await verify(job('src/Token.sol:Token', 'token', { input: { kind: 'standard-json', json: JSON.stringify(changed) } })));
  t.equal(v.match, 'partial');
  t.equal(v.runtimeMatch, 'partial');
  t.equal(v.creationMatch, 'partial');
  t.equal(v.constructorArguments, tokenArgs().slice(2), 'arguments recovered past the differing metadata');
});

t.test('mismatches and bad input: a clear failure each', async (t) => {
  const other = need(deployed['immutables'], 'immutables');
  t.match(await verify(job('Token', 'token', { deployedCode: other.code, creationInput: other.input })), { status: 'failed', reason: 'mismatch', message: /^Fail - Unable to verify/ });
  t.match(await verify(job('src/Nope.sol:Token', 'token')), { status: 'failed', reason: 'contract-not-found', message: 'No contract with name src/Nope.sol:Token found' });
  t.match(await verify(job('Nope', 'token')), { status: 'failed', reason: 'contract-not-found' });
  t.match(await verify(job('Token', 'token', { input: { kind: 'standard-json', json: '{"sources": ' } })), { status: 'failed', reason: 'invalid-input', message: /not JSON/ });
  t.match(await verify(job('Token', 'token', { input: { kind: 'standard-json', json: '[]' } })), { status: 'failed', reason: 'invalid-input' });
  t.match(await verify(job('Token', 'token', { input: { kind: 'standard-json', json: standardJson({ 'a.sol': 'contract Token { function }' }) } })), {
    status: 'failed',
    reason: 'compiler-errors',
    message: /Compilation failed: .*Error/s,
  });
  t.match(await verify(job('Token', 'token', { language: 'vyper' })), { status: 'failed', reason: 'unsupported-language', message: /vyper/ });
  t.match(await verify(job('Token', 'token', { compilerVersion: 'latest' })), { status: 'failed', reason: 'unknown-compiler', message: /Invalid compiler version/ });
  t.match(await verify(job('Token', 'token', { compilerVersion: 'v0.8.26+commit.8a97fa7a' })), {
    status: 'failed',
    reason: 'unknown-compiler',
    message: /v0\.8\.26\+commit\.8a97fa7a .*soljson-v0\.8\.26\+commit\.8a97fa7a\.js/,
  });
  t.match(await verify(job('Token', 'token', { compilerVersion: `v0.8.37+commit.00000000` })), { status: 'failed', reason: 'unknown-compiler' });
  t.match(await verify(job('Token', 'token', { deployedCode: EMPTY_HEX })), { status: 'failed', reason: 'invalid-input', message: /not a smart contract/ });
  const v = verified(t, await verify(job('Token', 'token')));
  t.equal(v.match, 'full', 'the pool serves on');
});

t.test('two compiler versions: the one asked for is used', async (t) => {
  const paris = standardJson({ 'Immutables.sol': IMMUTABLES }, { optimizer: { enabled: true, runs: 200 }, evmVersion: 'paris' });
  const old = await deploy(anvil.url, need(build(paris, 'solc-0.8.19')['Immutables.sol:Immutables'], 'old').bytecode, hex(`0x${(7n).toString(16).padStart(64, '0')}`));
  const base: VerificationJob = { language: 'solidity', input: { kind: 'standard-json', json: paris }, compilerVersion: '0.8.19', contractName: 'Immutables', deployedCode: old.code, creationInput: old.input };
  const v = verified(t, await verify(base));
  t.equal(v.compilerVersion, `v${solcVersion('solc-0.8.19').replace(/\.Emscripten.*$/, '')}`);
  t.match(v.compilerVersion, /^v0\.8\.19\+commit\./);
  t.match(await verify({ ...base, compilerVersion: '0.8.37' }), { status: 'failed', reason: 'mismatch' }, 'the same source with another compiler does not match');
});

t.test('the proxy source PROXY is the one deployed', async (t) => {
  t.ok(PROXY.includes('0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'), 'the EIP-1967 implementation slot');
});
