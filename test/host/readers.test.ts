/**
 * A reader, unchanged: `@shazow/whatsabi`'s loaders pointed at the server. A contract verified
 * through our flow (`verifysourcecode`, polled to `Pass - Verified`) reads back through its
 * Blockscout loader (`GET /api/v2/smart-contracts/{h}`), its Etherscan loaders (`getabi`,
 * `getsourcecode` on `/api`, the v1 form with a base URL and the v2 form with its `chainid`
 * parameter) and its multi-loader: the ABI solc made, the name, the compiler, the sources. A
 * contract nobody verified, an account and a bytecode twin of the verified contract: what each
 * loader makes of our answers, without throwing where it expects none. And `@wagmi/cli`'s
 * block-explorer plugin (`getabi`, its answer checked against its own schema: `"1"`/`"OK"` with
 * the ABI as text, `"0"`/`"NOTOK"` with the reason) fetching the verified ABI, and throwing our
 * reason for an unverified address, as it does for any explorer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loaders } from '@shazow/whatsabi';
import { blockExplorer } from '@wagmi/cli/plugins';
import t from 'tap';
import { getAddress } from 'viem';
import { createMemoryContractStore, createMemoryStore } from '../../adapters/memory/index.ts';
import { ACCOUNT, compilerVersion, COUNTER_ADDRESS, TOKEN_ADDRESS, TOKEN_INPUT, TOKEN_TWIN, tokenArgs, writeVerifiableChain } from '../support/verification.ts';
import { TOKEN } from '../adapters/solc/fixture.ts';
import { serveVerifying } from '../support/verifyingServer.ts';
import { request } from './helpers.ts';

const store = createMemoryStore();
const chain = await writeVerifiableChain(store);
const url = await serveVerifying(t, { chainId: '1', chain: { store, contracts: createMemoryContractStore() } });

/** Verify the token through the Etherscan flow, as forge does, and wait for the verdict. */
async function verifyToken(): Promise<unknown> {
  const form = (fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  const submitted = await request(
    `${url}/api`,
    form({
      module: 'contract',
      action: 'verifysourcecode',
      contractaddress: getAddress(TOKEN_ADDRESS),
      sourceCode: TOKEN_INPUT,
      codeformat: 'solidity-standard-json-input',
      contractname: 'src/Token.sol:Token',
      compilerversion: compilerVersion(),
      constructorArguements: tokenArgs().slice(2),
    }),
  );
  const guid = (submitted.json as { result: string }).result;
  let status: unknown;
  for (let i = 0; i < 600; i++) {
    status = (await request(`${url}/api`, form({ module: 'contract', action: 'checkverifystatus', guid }))).json;
    if ((status as { result: string }).result !== 'Pending in queue') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return status;
}

t.same(await verifyToken(), { status: '1', message: 'OK', result: 'Pass - Verified' }, 'the token verified through our flow');

const blockscout = new loaders.BlockscoutABILoader({ baseURL: `${url}/api` });
const etherscanV1 = new loaders.EtherscanV1ABILoader({ baseURL: `${url}/api` });
// the v2 loader builds `https://api.etherscan.io/v2/api?chainid=1`; its base URL is a public field
const etherscanV2 = new loaders.EtherscanV2ABILoader({ apiKey: '', chainId: 1 });
etherscanV2.baseURL = `${url}/api?chainid=1`;
const token = getAddress(TOKEN_ADDRESS);

t.test('Blockscout loader: the verified contract', async (t) => {
  t.same(await blockscout.loadABI(token), chain.token.abi, 'loadABI: the ABI solc made');
  const contract = await blockscout.getContract(token);
  t.same([contract.ok, contract.name, contract.compilerVersion], [true, 'Token', compilerVersion()], 'getContract: ok, name, compiler');
  t.same(contract.abi, chain.token.abi, 'getContract: the ABI');
  const sources = await contract.getSources?.();
  t.same(sources, [{ path: 'src/Token.sol', content: TOKEN }], 'getSources: the file as submitted');
});

t.test('Etherscan loaders (v1 with a base URL, v2 with chainid): the verified contract', async (t) => {
  for (const [name, loader] of [
    ['v1', etherscanV1],
    ['v2', etherscanV2],
  ] as const) {
    t.same(await loader.loadABI(token), chain.token.abi, `${name} loadABI (getabi): the ABI solc made`);
    const contract = await loader.getContract(token);
    t.same([contract.ok, contract.name, contract.compilerVersion], [true, 'Token', compilerVersion()], `${name} getContract (getsourcecode)`);
    t.same(contract.abi, chain.token.abi, `${name} getContract: the ABI`);
    t.same(await contract.getSources?.(), [{ path: 'src/Token.sol', content: TOKEN }], `${name} getSources: SourceCode as {{…}} decoded to the file`);
  }
});

t.test('a bytecode twin reads as verified (Blockscout shows the twin)', async (t) => {
  t.same(await blockscout.loadABI(getAddress(TOKEN_TWIN)), chain.token.abi, 'Blockscout loader');
  t.same(await etherscanV1.loadABI(getAddress(TOKEN_TWIN)), chain.token.abi, 'Etherscan loader');
});

t.test('unverified: a contract nobody verified, an account', async (t) => {
  for (const address of [getAddress(COUNTER_ADDRESS), getAddress(ACCOUNT)]) {
    t.same(await blockscout.loadABI(address), [], `Blockscout loadABI ${address}: empty, no throw`);
    t.equal((await blockscout.getContract(address)).ok, false, `Blockscout getContract ${address}: not ok`);
    for (const loader of [etherscanV1, etherscanV2]) {
      t.same(await loader.loadABI(address), [], `${loader.name} loadABI ${address}: [] (our NOTOK "Contract source code not verified")`);
      t.equal((await loader.getContract(address)).ok, false, `${loader.name} getContract ${address}: not ok`);
    }
  }
});

t.test('MultiABILoader: Blockscout then Etherscan, as an app chains them', async (t) => {
  const multi = new loaders.MultiABILoader([blockscout, etherscanV1]);
  const contract = await multi.getContract(token);
  t.same([contract.ok, contract.name, contract.abi], [true, 'Token', chain.token.abi], 'the first loader answers');
  const none = await multi.getContract(getAddress(COUNTER_ADDRESS));
  t.equal(none.ok, false, 'unverified by both: not ok, no throw');
});

t.test('@wagmi/cli block-explorer plugin: getabi', async (t) => {
  // the plugin caches ABIs under ~/.wagmi-cli: a home of its own
  const home = await mkdtemp(join(tmpdir(), 'scoutkit-wagmi-'));
  const realHome = process.env['HOME'];
  process.env['HOME'] = home;
  t.teardown(async () => {
    process.env['HOME'] = realHome;
    await rm(home, { recursive: true, force: true });
  });
  const plugin = blockExplorer({ baseUrl: `${url}/api`, chainId: 1, cacheDuration: 0, contracts: [{ name: 'Token', address: token }] });
  const contracts = await plugin.contracts();
  t.same(contracts, [{ name: 'Token', address: token, abi: chain.token.abi }], 'the verified ABI, through its response schema');
  const unverified = blockExplorer({ baseUrl: `${url}/api`, cacheDuration: 0, contracts: [{ name: 'Counter', address: getAddress(COUNTER_ADDRESS) }] });
  await t.rejects(async () => unverified.contracts(), { message: 'Contract source code not verified' }, 'unverified: our NOTOK passes its schema, it throws our reason');
});
