/**
 * `contract/getsourcecode`: `address` → a one-element list.
 *
 * A verified contract (its own, else a bytecode twin's, as Blockscout picks) has Blockscout's
 * keys (reference §2.5), in its order: `Address` (as asked, lower-case), `SourceCode`, `ABI` (a
 * JSON string), `ContractName`, `CompilerVersion`, `OptimizationUsed` ("true"/"false"),
 * `OptimizationRuns` (a number, with the optimizer on), `EVMVersion`, `FileName`,
 * `ConstructorArguments`, `ExternalLibraries`, `AdditionalSources` (each only when not empty),
 * `CompilerSettings` (when stored), `IsProxy` ("true"/"false", from the proxies the indexer saw) and,
 * for a proxy, Blockscout's `ImplementationAddress` / `ImplementationAddresses` and Etherscan's
 * `Proxy: "1"` / `Implementation`. An unverified proxy with one implementation is described by
 * its implementation's verified contract (Blockscout's order: own, single implementation, twin). `SourceCode`
 * of a standard-JSON or multi-file verification is Etherscan's `{{…}}` form (the standard-JSON
 * input in one more pair of braces), which forge and hardhat read back as sources; a flattened
 * one is the file itself.
 *
 * Unverified: Etherscan's empty fields with `ABI: "Contract source code not verified"`, status 1
 * (forge, hardhat and ethers read it as "not verified").
 */
import type { VerifiedContract } from '../../contracts/records.ts';
import type { Address } from '../../domain/records.ts';
import type { JsonObject, JsonValue } from '../../json.ts';
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { addressParam } from '../params.ts';
import { CONTRACT_ADDRESS } from '../paramDocs.ts';
import { abiText, NOT_VERIFIED, verificationOf } from '../verified.ts';
import { loadProxyView, proxyOf } from '../../proxy/view.ts';

/** The standard-JSON input of a verification, in Etherscan's double braces. */
export function etherscanSourceCode(c: VerifiedContract): string {
  if (c.codeFormat === 'single-file') return c.sources[c.filePath] ?? '';
  const sources: Record<string, { content: string }> = {};
  for (const [path, content] of Object.entries(c.sources)) sources[path] = { content };
  const input: JsonObject = {
    language: c.language === 'vyper' ? 'Vyper' : c.language === 'yul' ? 'Yul' : 'Solidity',
    sources,
    ...(c.compilerSettings !== null ? { settings: c.compilerSettings } : {}),
  };
  return `{${JSON.stringify(input)}}`;
}

function sourceCodeItem(address: Address, c: VerifiedContract, implementations: readonly Address[]): JsonObject {
  const others = Object.entries(c.sources)
    .filter(([path]) => path !== c.filePath)
    .map(([path, content]): JsonValue => ({ Filename: path, SourceCode: content }));
  const libraries = Object.entries(c.libraries).map(([name, a]): JsonValue => ({ name, address_hash: a }));
  return {
    Address: address,
    SourceCode: etherscanSourceCode(c),
    ABI: abiText(c),
    ContractName: c.name,
    CompilerVersion: c.compilerVersion,
    OptimizationUsed: c.optimizationEnabled ? 'true' : 'false',
    ...(c.optimizationEnabled && c.optimizationRuns !== null ? { OptimizationRuns: c.optimizationRuns } : {}),
    EVMVersion: c.evmVersion,
    FileName: c.codeFormat === 'single-file' ? '' : c.filePath,
    ...(c.constructorArguments !== null ? { ConstructorArguments: c.constructorArguments.slice(2) } : {}),
    ...(libraries.length > 0 ? { ExternalLibraries: libraries } : {}),
    ...(others.length > 0 ? { AdditionalSources: others } : {}),
    ...(c.compilerSettings !== null ? { CompilerSettings: c.compilerSettings } : {}),
    ...(implementations.length === 0
      ? { IsProxy: 'false' }
      : {
          IsProxy: 'true',
          ImplementationAddress: implementations[0] ?? '',
          ImplementationAddresses: [...implementations],
          Proxy: '1',
          Implementation: implementations[0] ?? '',
        }),
  };
}

export const getsourcecode: EtherscanAction = {
  module: 'contract',
  action: 'getsourcecode',
  summary: "A contract's verified source code",
  params: [CONTRACT_ADDRESS],
  async run(ctx, query) {
    const address = addressParam(query);
    if ('error' in address) return address.error;
    const [verification, view] = await Promise.all([verificationOf(ctx, address.value), loadProxyView(ctx.ds, ctx.chain.contracts, [address.value])]);
    const implementations = proxyOf(view, address.value)?.implementations ?? [];
    const own = verification?.own === true ? verification : undefined;
    const single = implementations.length === 1 && implementations[0] !== undefined ? view.implementationsVerified.get(implementations[0]) : undefined;
    const described = own ?? single ?? verification;
    if (described !== undefined) return ok([sourceCodeItem(address.value, described.contract, implementations)]);
    return ok([
      {
        Address: address.value,
        SourceCode: '',
        ABI: NOT_VERIFIED,
        ContractName: '',
        CompilerVersion: '',
        OptimizationUsed: '',
        DecompiledSourceCode: '',
        DecompilerVersion: '',
      },
    ]);
  },
};
