/**
 * Sourcify's API over HTTP, in process (memory stores, the fixture chain, the solc-js verifier
 * offline): each endpoint's shapes and errors as Sourcify answers them — API v2's verify (202,
 * then 409 once fully verified), its job (no `error` key once passed; Sourcify's error object
 * when failed: `contract_not_deployed`, `no_match`), the lookup (404 with null matches when
 * unverified; `fields`, `omit`), the list (paged by `afterMatchId`), the metadata form; the
 * legacy `check-all-by-addresses` and `POST /` (hardhat-verify 2's); bad input: Sourcify-shaped
 * 400s (address, chain, JSON, fields), an unknown job 404. A contract verified through Sourcify
 * reads verified in API v2, and one verified through API v2's Etherscan dialect in Sourcify's.
 */
import { createRequire } from 'node:module';
import t from 'tap';
import { getAddress } from 'viem';
import { createMemoryContractStore, createMemoryStore } from '../../adapters/memory/index.ts';
import { serveVerifying } from '../support/verifyingServer.ts';
import { request } from './helpers.ts';
import type { Reply } from './helpers.ts';
import { ACCOUNT, compilerVersion, COUNTER, COUNTER_ADDRESS, ODD_ADDRESS, TOKEN_ADDRESS, TOKEN_INPUT, TOKEN_TWIN, writeVerifiableChain } from '../support/verification.ts';

const require = createRequire(import.meta.url);
const VERSION = compilerVersion();

const store = createMemoryStore();
await writeVerifiableChain(store);
const contracts = createMemoryContractStore();
const url = await serveVerifying(t, { chainId: '1', chain: { store, contracts } });

const json = (r: Reply): Record<string, unknown> => r.json as Record<string, unknown>;
const post = (path: string, body: unknown): Promise<Reply> =>
  request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const get = (path: string): Promise<Reply> => request(`${url}${path}`);
const ERROR = { customCode: String, message: String, errorId: /^[0-9a-f-]{36}$/ };

/** Counter.sol's metadata, from npm's solc with the settings the fixture chain deployed it with */
function counterMetadata(): string {
  const solc = require('solc') as { compile: (i: string) => string };
  const input = { language: 'Solidity', sources: { 'Counter.sol': { content: COUNTER } }, settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['metadata'] } } } };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as { contracts: Record<string, Record<string, { metadata: string }>> };
  return out.contracts['Counter.sol']?.['Counter']?.metadata ?? '';
}

const tokenBody = { stdJsonInput: JSON.parse(TOKEN_INPUT) as object, compilerVersion: VERSION, contractIdentifier: 'src/Token.sol:Token' };

t.test('bad input: Sourcify-shaped 400s and 404s', async (t) => {
  const token = getAddress(TOKEN_ADDRESS);
  const cases: readonly (readonly [string, Promise<Reply>, number, string])[] = [
    ['a malformed address', get('/v2/contract/1/0x1234'), 400, 'invalid_parameter'],
    ['a bad checksum', get('/v2/contract/1/0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed'), 400, 'invalid_parameter'],
    ['an unknown chain', get(`/v2/contract/5/${token}`), 400, 'unsupported_chain'],
    ['an unknown chain (verify)', post(`/v2/verify/5/${token}`, tokenBody), 400, 'unsupported_chain'],
    ['malformed JSON', post(`/v2/verify/1/${token}`, '{"stdJsonInput":'), 400, 'invalid_json'],
    ['no standard JSON input', post(`/v2/verify/1/${token}`, { compilerVersion: VERSION, contractIdentifier: 'a.sol:A' }), 400, 'invalid_parameter'],
    ['a contract identifier without a path', post(`/v2/verify/1/${token}`, { ...tokenBody, contractIdentifier: 'Token' }), 400, 'invalid_parameter'],
    ['a bad compiler version', post(`/v2/verify/1/${token}`, { ...tokenBody, compilerVersion: 'latest' }), 400, 'invalid_parameter'],
    ['metadata without sources', post(`/v2/verify/metadata/1/${token}`, { metadata: {} }), 400, 'invalid_parameter'],
    ['an unknown job', get('/v2/verify/00000000-0000-4000-8000-000000000000'), 404, 'job_not_found'],
    ['a job id that is none', get('/v2/verify/not-a-job!'), 400, 'invalid_parameter'],
    ['fields and omit', get(`/v2/contract/1/${token}?fields=abi&omit=abi`), 400, 'invalid_parameter'],
    ['an unknown field', get(`/v2/contract/1/${token}?fields=bytecode`), 400, 'invalid_parameter'],
    ['an unknown query parameter', get(`/v2/contract/1/${token}?field=abi`), 400, 'invalid_parameter'],
    ['a limit over 200', get('/v2/contracts/1?limit=201'), 400, 'invalid_parameter'],
    ['a path of the API under another method', get(`/v2/verify/1/${token}`), 404, 'route_not_found'],
  ];
  for (const [what, reply, status, code] of cases) {
    const r = await reply;
    t.equal(r.status, status, `${what}: ${status}`);
    t.match(r.json, { ...ERROR, customCode: code }, `${what}: ${code}`);
  }
  t.match(json(await get('/v2/verify/00000000-0000-4000-8000-000000000000')), { message: 'No verification job found for id 00000000-0000-4000-8000-000000000000' });
  const legacy = await get('/check-all-by-addresses?chainIds=1');
  t.equal(legacy.status, 400, 'legacy: no addresses, 400');
  t.match(legacy.json, { error: String, message: String }, 'in the legacy shape');
});

t.test('an unverified contract: 404 carrying the contract object with null matches', async (t) => {
  const r = await get(`/v2/contract/1/${COUNTER_ADDRESS}`);
  t.equal(r.status, 404);
  t.same(r.json, { match: null, creationMatch: null, runtimeMatch: null, chainId: '1', address: getAddress(COUNTER_ADDRESS) });
  t.same((await get(`/check-all-by-addresses?addresses=${COUNTER_ADDRESS}&chainIds=1`)).json, [{ address: getAddress(COUNTER_ADDRESS), status: 'false' }], 'legacy: status "false"');
});

let verificationId = '';
t.test('POST /v2/verify: 202 and a job that passes; verified everywhere; 409 after', async (t) => {
  const submitted = await post(`/v2/verify/1/${getAddress(TOKEN_ADDRESS)}`, tokenBody);
  t.equal(submitted.status, 202, '202 for a new job');
  verificationId = String(json(submitted)['verificationId']);
  t.match(verificationId, /^[0-9a-f]+$/);
  let job: Record<string, unknown> = {};
  for (let i = 0; i < 10 && job['isJobCompleted'] !== true; i++) job = json(await get(`/v2/verify/${verificationId}`));
  t.match(job, { isJobCompleted: true, verificationId, jobStartTime: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, jobFinishTime: String, contract: { match: 'exact_match', runtimeMatch: 'exact_match', creationMatch: 'exact_match', chainId: '1', address: getAddress(TOKEN_ADDRESS), verifiedAt: String, matchId: String } });
  t.notOk('error' in job, 'a passed job has no error key');
  t.equal((await contracts.getJob(verificationId))?.inputKind, 'sourcify-standard-json', 'the job records its input kind');
  t.match(json(await get(`/api/v2/smart-contracts/${TOKEN_ADDRESS}`)), { is_verified: true, is_fully_verified: true, name: 'Token' }, 'API v2 reads it verified');
  const again = await post(`/v2/verify/1/${TOKEN_ADDRESS}`, tokenBody);
  t.equal(again.status, 409, 'already verified: 409');
  t.match(again.json, { ...ERROR, customCode: 'already_verified' });
});

t.test('GET /v2/contract: matches, fields and omit', async (t) => {
  const plain = await get(`/v2/contract/1/${TOKEN_ADDRESS}`);
  t.equal(plain.status, 200);
  t.same(Object.keys(json(plain)).sort(), ['address', 'chainId', 'creationMatch', 'match', 'matchId', 'runtimeMatch', 'verifiedAt'], 'no fields asked: the minimal object');
  const picked = json(await get(`/v2/contract/1/${TOKEN_ADDRESS}?fields=abi,compilation.name,deployment`));
  t.match(picked, { match: 'exact_match', abi: Array, compilation: { name: 'Token' }, deployment: { transactionHash: String, blockNumber: String, deployer: String } });
  t.same(Object.keys(picked['compilation'] as object), ['name'], 'one key of a field');
  const all = json(await get(`/v2/contract/1/${TOKEN_ADDRESS}?fields=all`));
  t.match(all, { sources: { 'src/Token.sol': { content: String } }, compilation: { language: 'Solidity', compiler: 'solc', compilerVersion: VERSION.slice(1), fullyQualifiedName: 'src/Token.sol:Token' }, stdJsonInput: { language: 'Solidity' }, signatures: { function: Array, event: Array } });
  const signatures = all['signatures'] as { function: { signature: string; signatureHash4: string }[] };
  t.ok(signatures.function.some((f) => f.signature === 'transfer(address,uint256)' && f.signatureHash4 === '0xa9059cbb'), "transfer's selector");
  const omitted = json(await get(`/v2/contract/1/${TOKEN_ADDRESS}?omit=sources,stdJsonInput`));
  t.ok('abi' in omitted && !('sources' in omitted) && !('stdJsonInput' in omitted), 'omit leaves those out');
  t.match(json(await get(`/v2/contract/1/${TOKEN_TWIN}`)), { match: 'exact_match' }, "a bytecode twin: the code's match");
});

t.test('GET /v2/contracts: the verified list, paged by matchId', async (t) => {
  const page = json(await get('/v2/contracts/1'));
  t.match(page, { results: [{ match: 'exact_match', chainId: '1', address: getAddress(TOKEN_ADDRESS), matchId: String, verifiedAt: String }] });
  const matchId = (page['results'] as { matchId: string }[])[0]?.matchId;
  t.same(json(await get(`/v2/contracts/1?afterMatchId=${matchId}`)), { results: [] }, 'nothing after the last');
  t.same(json(await get(`/v2/contracts/1?sort=asc&limit=1`))['results'], page['results'], 'asc, one');
});

t.test('a job that fails: Sourcify error object, isJobCompleted', async (t) => {
  const noCode = await post(`/v2/verify/1/${ACCOUNT}`, tokenBody);
  t.equal(noCode.status, 202, 'an account: 202 (Sourcify reads the chain in the job)');
  t.match(json(await get(`/v2/verify/${String(json(noCode)['verificationId'])}`)), { isJobCompleted: true, contract: { match: null }, error: { ...ERROR, customCode: 'contract_not_deployed' } });
  const metadata = JSON.parse(counterMetadata()) as object;
  const odd = await post(`/v2/verify/metadata/1/${ODD_ADDRESS}`, { metadata, sources: { 'Counter.sol': COUNTER } });
  t.equal(odd.status, 202, 'metadata form: 202');
  t.equal((await contracts.getJob(String(json(odd)['verificationId'])))?.inputKind, 'sourcify-metadata', 'the job records its input kind');
  let job: Record<string, unknown> = {};
  for (let i = 0; i < 10 && job['isJobCompleted'] !== true; i++) job = json(await get(`/v2/verify/${String(json(odd)['verificationId'])}`));
  t.match(job, { isJobCompleted: true, contract: { match: null, runtimeMatch: null }, error: { ...ERROR, customCode: 'no_match' } }, 'code nothing compiles to: no_match');
});

t.test('legacy POST / and check-all-by-addresses (hardhat-verify 2)', async (t) => {
  const files = { 'metadata.json': counterMetadata(), 'Counter.sol': COUNTER };
  const r = await post('/', { address: COUNTER_ADDRESS, chain: '1', files });
  t.equal(r.status, 200, 'synchronous: 200');
  t.match(r.json, { result: [{ address: getAddress(COUNTER_ADDRESS), chainId: '1', status: 'perfect' }] });
  t.same((await get(`/check-all-by-addresses?addresses=${COUNTER_ADDRESS},${ACCOUNT}&chainIds=1`)).json, [
    { address: getAddress(COUNTER_ADDRESS), chainIds: [{ chainId: '1', status: 'perfect' }] },
    { address: getAddress(ACCOUNT), status: 'false' },
  ]);
  t.match(json(await get(`/api/v2/smart-contracts/${COUNTER_ADDRESS}`)), { is_verified: true, name: 'Counter' }, 'API v2 reads it verified');
  const bad = await post('/', { address: COUNTER_ADDRESS, chain: '1', files: { 'Counter.sol': COUNTER } });
  t.equal(bad.status, 400, 'no metadata: 400');
  t.match(bad.json, { error: /Metadata/ });
});
