/**
 * `decoded_constructor_args` of `/smart-contracts/{h}` when nothing decodes, over every store
 * (SCOUTKIT_STORES): the stored arguments too short for the constructor's inputs, and an ABI
 * without a constructor, each give null beside the stored `constructor_args`; the answers still
 * validate against both official documents. (The decoded shape itself: verified.test.ts.)
 */
import t from 'tap';
import type { Address, Hex } from '../../../lib/domain/records.ts';
import type { JsonValue } from '../../../lib/json.ts';
import type { ChainConfig } from '../../../lib/index.ts';
import { createExplorer, saveVerifiedContract, toJson } from '../../../lib/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { FIXTURE_NOW } from '../../support/explorer.ts';
import { storeFactories } from '../../support/stores.ts';
import { contractStoreBeside } from '../../support/contracts.ts';
import { officialSpecs, validateResponse } from '../../support/openapi.ts';

type Body = Record<string, unknown>;

const CTOR = { type: 'constructor', stateMutability: 'nonpayable', inputs: [{ name: 'owner', type: 'address', internalType: 'address' }, { name: 'tags', type: 'string[]', internalType: 'string[]' }] };
const SHORT = `0x${'00'.repeat(12)}${'11'.repeat(20)}` as Hex;

const factories = await storeFactories();
const specs = await officialSpecs();

for (const factory of factories) {
  await t.test(factory.name, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const { facts: f } = await loadFixtureChain(store);
    const chain: ChainConfig = { store, contracts: contractStoreBeside(store) };
    const ex = createExplorer({ chains: { '1': chain }, now: () => FIXTURE_NOW });
    const OWN = f.smartContracts.byTransaction;
    const [code] = await store.getContracts([OWN]);
    const deployedBytecode = code?.deployedBytecode as Hex;
    const save = (abi: JsonValue[], constructorArguments: Hex, match: 'partial' | 'full'): Promise<unknown> =>
      saveVerifiedContract(chain, { address: OWN as Address, deployedBytecode, name: 'Usdx', compilerVersion: 'v0.8.24+commit.e11b9ed9', optimizationEnabled: false, filePath: 'Usdx.sol', sources: { 'Usdx.sol': '' }, abi, constructorArguments, match });
    const check = async (what: string, abi: JsonValue[], args: Hex): Promise<void> => {
      for (const [form, path] of [['instance', `/api/v2/smart-contracts/${OWN}`], ['pro', `/1/api/v2/smart-contracts/${OWN}`]] as const) {
        const r = await ex.handle({ path, query: {} });
        const body = JSON.parse(toJson(r.body)) as Body;
        t.same([r.status, body['is_verified'], body['abi'], body['constructor_args'], body['decoded_constructor_args']], [200, true, abi, args, null], `${what} (${form}): the stored ABI and arguments, decoded null`);
        if (specs !== null) t.same(validateResponse(specs, form, '/smart-contracts/{address_hash_param}', 200, body), [], `${what} (${form}): the official document`);
      }
    };

    await save([CTOR], SHORT, 'partial');
    await check('arguments too short for (address, string[])', [CTOR], SHORT);
    // a full match replaces the partial one
    const noCtor = [{ type: 'function', name: 'f', stateMutability: 'view', inputs: [], outputs: [] }];
    await save(noCtor, SHORT, 'full');
    await check('an ABI without a constructor', noCtor, SHORT);
  });
}
