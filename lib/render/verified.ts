/**
 * Verified contracts → API JSON: `/smart-contracts/{h}` in Blockscout's verified shape (the
 * contract's own verification, or a bytecode twin's), and the `/smart-contracts` list item.
 */
import { decodeAbiParameters } from 'viem';
import type { AbiParameter } from 'viem';
import type { AddressVerification } from '../contracts/lookup.ts';
import type { VerifiedContract } from '../contracts/records.ts';
import type * as t from 'io-ts';
import type { ContractCodeRecord, Hex } from '../domain/records.ts';
import type { VerifiedSmartContract } from '../schema/contract.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { renderAddress } from './address.ts';
import { renderSmartContract } from './contract.ts';
import type { SmartContractItemJson } from './contract.ts';
import type { RenderContext } from './context.ts';
import { checksum } from './format.ts';
import { renderParamValue } from '../decode/values.ts';

/** Blockscout's `verified_at`: ISO 8601 with microseconds. */
export function verifiedAtIso(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000Z`;
}

const isObject = (v: JsonValue): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The constructor's inputs in an ABI, or null when it has none. */
function constructorInputs(abi: readonly JsonValue[]): readonly AbiParameter[] | null {
  const ctor = abi.find((item) => isObject(item) && item['type'] === 'constructor');
  if (ctor === undefined || !isObject(ctor)) return null;
  const inputs = ctor['inputs'];
  return Array.isArray(inputs) && inputs.length > 0 ? (inputs as unknown as readonly AbiParameter[]) : null;
}

/**
 * `[value, abiInput]` pairs as Blockscout decodes constructor arguments (values as in
 * DecodingHelper.value_json, tuples as arrays of their members); null without inputs or on a decode error.
 */
export function decodeConstructorArgs(abi: readonly JsonValue[], args: Hex | null): [JsonValue, JsonObject][] | null {
  if (args === null) return null;
  const inputs = constructorInputs(abi);
  if (inputs === null) return null;
  try {
    const values = decodeAbiParameters(inputs, args);
    return inputs.map((input, i): [JsonValue, JsonObject] => [renderParamValue(input, values[i]), input as unknown as JsonObject]);
  } catch {
    return null;
  }
}

/** The main file and the others, as Blockscout splits them. */
function splitSources(c: VerifiedContract): { readonly main: string; readonly others: { file_path: string; source_code: string }[] } {
  const others: { file_path: string; source_code: string }[] = [];
  for (const [path, content] of Object.entries(c.sources)) if (path !== c.filePath) others.push({ file_path: path, source_code: content });
  return { main: c.sources[c.filePath] ?? '', others };
}

/**
 * `/smart-contracts/{h}` of an address whose code a verified contract shares: its own
 * verification (`is_verified: true`), or a bytecode twin's (`is_verified: false`, the verified
 * address in `verified_twin_address_hash`, no constructor arguments), as Blockscout renders them.
 */
/** the verified smart-contract body, as its schema types it */
export type VerifiedSmartContractJson = t.OutputOf<typeof VerifiedSmartContract>;

export function renderVerifiedSmartContract(code: ContractCodeRecord, createdByTransaction: boolean, v: AddressVerification): VerifiedSmartContractJson {
  const c = v.contract;
  const { main, others } = splitSources(c);
  const bytecode = renderSmartContract(code, createdByTransaction);
  const own = v.own;
  const args = own ? c.constructorArguments : null;
  return {
    verified_twin_address_hash: own ? null : checksum(c.address),
    is_verified: own,
    is_changed_bytecode: false,
    is_partially_verified: own && c.match === 'partial',
    is_fully_verified: own && c.match === 'full',
    is_verified_via_sourcify: own && c.verifiedViaSourcify,
    is_verified_via_eth_bytecode_db: c.verifiedViaEthBytecodeDb,
    is_verified_via_verifier_alliance: c.verifiedViaVerifierAlliance,
    proxy_type: null,
    implementations: [],
    conflicting_implementations: null,
    sourcify_repo_url: null,
    can_be_visualized_via_sol2uml: false,
    name: c.name,
    compiler_version: c.compilerVersion,
    optimization_enabled: c.optimizationEnabled,
    optimization_runs: c.optimizationEnabled ? c.optimizationRuns : null,
    evm_version: c.evmVersion,
    verified_at: verifiedAtIso(c.verifiedAt),
    // an ABI is a list of objects (a stored one never holds anything else)
    abi: c.abi.filter(isObject),
    source_code: main,
    file_path: c.codeFormat === 'single-file' ? null : c.filePath,
    additional_sources: others,
    compiler_settings: c.compilerSettings,
    external_libraries: Object.entries(c.libraries).map(([name, address]) => ({ name, address_hash: checksum(address) })),
    constructor_args: args,
    decoded_constructor_args: own ? decodeConstructorArgs(c.abi, args) : null,
    language: c.language,
    license_type: c.licenseType,
    certified: c.certified,
    is_blueprint: c.isBlueprint,
    deployed_bytecode: bytecode.deployed_bytecode,
    creation_bytecode: bytecode.creation_bytecode,
    creation_status: bytecode.creation_status,
  };
}

/** A `/smart-contracts` item of a verified contract (at the address first verified). */
export function renderVerifiedItem(c: VerifiedContract, ctx: Pick<RenderContext, 'addresses'> & Partial<Pick<RenderContext, 'verified'>>): SmartContractItemJson {
  return {
    address: renderAddress(c.address, ctx),
    compiler_version: c.compilerVersion,
    optimization_enabled: c.optimizationEnabled,
    language: c.language,
    verified_at: verifiedAtIso(c.verifiedAt),
    has_constructor_args: c.constructorArguments !== null,
    license_type: c.licenseType,
    certified: c.certified,
    reputation: 'ok',
    coin_balance: null,
    transactions_count: null,
    market_cap: null,
  };
}
