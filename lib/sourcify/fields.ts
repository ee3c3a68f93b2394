/**
 * The fields `GET /v2/contract/{chainId}/{address}` selects (`fields=a,b.c`, `fields=all`) or
 * leaves out (`omit=a,b`), as Sourcify names them (services/server apiv2 lookup): a name, or a
 * name and one of its keys. Built from a verified contract and the address's creation record;
 * what scoutkit does not keep (the recompiled bytecode, source maps, metadata, NatSpec, storage
 * layouts, the compiler's output, proxy resolution) is null.
 */
import { toEventSelector, toFunctionSelector, formatAbiItem } from 'viem/utils';
import type { AbiError, AbiEvent, AbiFunction } from 'abitype';
import type { VerifiedContract } from '../contracts/records.ts';
import type { ContractCodeRecord } from '../domain/records.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { checksum } from './answer.ts';

const BYTECODE_KEYS = ['onchainBytecode', 'recompiledBytecode', 'sourceMap', 'linkReferences', 'cborAuxdata', 'transformations', 'transformationValues'] as const;

/** every field, with its keys (empty: no sub-selection) */
export const FIELDS: Readonly<Record<string, readonly string[]>> = {
  creationBytecode: BYTECODE_KEYS,
  runtimeBytecode: [...BYTECODE_KEYS, 'immutableReferences'],
  deployment: ['transactionHash', 'blockNumber', 'transactionIndex', 'deployer'],
  sources: [],
  compilation: ['language', 'compiler', 'compilerVersion', 'compilerSettings', 'name', 'fullyQualifiedName'],
  abi: [],
  metadata: [],
  storageLayout: [],
  transientStorageLayout: [],
  userdoc: [],
  devdoc: [],
  sourceIds: [],
  stdJsonInput: ['language', 'sources', 'settings'],
  stdJsonOutput: ['sources', 'contracts'],
  signatures: ['function', 'event', 'error'],
  proxyResolution: [],
};

/** Every field's value for a verified contract at an address. */
export function allFields(contract: VerifiedContract, record: ContractCodeRecord): Readonly<Record<string, JsonValue>> {
  const language = contract.language === 'vyper' ? 'Vyper' : contract.language === 'yul' ? 'Yul' : 'Solidity';
  const sources: JsonObject = Object.fromEntries(Object.entries(contract.sources).map(([path, content]) => [path, { content }]));
  const settings = contract.compilerSettings ?? { optimizer: { enabled: contract.optimizationEnabled, ...(contract.optimizationRuns !== null ? { runs: contract.optimizationRuns } : {}) }, ...(contract.evmVersion !== 'default' ? { evmVersion: contract.evmVersion } : {}) };
  const bytecode = (onchain: string | null): JsonObject => ({ ...Object.fromEntries(BYTECODE_KEYS.map((k) => [k, null])), onchainBytecode: onchain });
  return {
    creationBytecode: bytecode(record.creationBytecode),
    runtimeBytecode: { ...bytecode(record.deployedBytecode), immutableReferences: null },
    deployment: { transactionHash: record.transactionHash, blockNumber: String(record.blockNumber), transactionIndex: String(record.transactionIndex), deployer: checksum(record.creator) },
    sources,
    compilation: {
      language,
      compiler: contract.language === 'vyper' ? 'vyper' : 'solc',
      compilerVersion: contract.compilerVersion.replace(/^v/, ''),
      compilerSettings: settings,
      name: contract.name,
      fullyQualifiedName: `${contract.filePath}:${contract.name}`,
    },
    abi: [...contract.abi],
    metadata: null,
    storageLayout: null,
    transientStorageLayout: null,
    userdoc: null,
    devdoc: null,
    sourceIds: null,
    stdJsonInput: { language, sources, settings },
    stdJsonOutput: null,
    signatures: signatures(contract.abi),
    proxyResolution: null,
  };
}

/** `{function, event, error}`: each item's signature, its 32-byte hash and its 4-byte selector */
function signatures(abi: readonly JsonValue[]): JsonObject {
  const out: Record<'function' | 'event' | 'error', JsonObject[]> = { function: [], event: [], error: [] };
  for (const item of abi) {
    if (!isObject(item)) continue;
    const type = item['type'];
    if (type !== 'function' && type !== 'event' && type !== 'error') continue;
    try {
      const abiItem = item as unknown as AbiFunction | AbiEvent | AbiError;
      const signature = formatAbiItem(abiItem);
      const hash32 = type === 'event' ? toEventSelector(abiItem as AbiEvent) : toEventSelector(signature);
      out[type].push({ signature, signatureHash32: hash32, signatureHash4: type === 'event' ? hash32.slice(0, 10) : toFunctionSelector(signature) });
    } catch {
      // an ABI item viem cannot read: left out
    }
  }
  return out;
}

/** A selection (`fields` or `omit`) checked: the names, or the message of the first bad one. */
export function parseSelectors(text: string, allowKeys: boolean): { readonly value: readonly string[] } | { readonly message: string } {
  const names = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (names.includes('all') && names.length > 1) return { message: 'Cannot specify "all" with other fields' };
  for (const name of names) {
    if (name === 'all' && allowKeys) continue;
    const [field = '', key, deeper] = name.split('.');
    const keys = FIELDS[field];
    const valid = keys !== undefined && deeper === undefined && (key === undefined || (allowKeys && keys.includes(key)));
    if (!valid) return { message: `Field selector ${name} is not a valid field` };
  }
  return { value: names };
}

/** The selected fields (`fields` given), or all but the omitted ones. */
export function selectFields(all: Readonly<Record<string, JsonValue>>, selection: { readonly fields?: readonly string[]; readonly omit?: readonly string[] }): JsonObject {
  if (selection.omit !== undefined) {
    const omitted = new Set(selection.omit);
    return Object.fromEntries(Object.entries(all).filter(([name]) => !omitted.has(name)));
  }
  const fields = selection.fields ?? [];
  if (fields.includes('all')) return { ...all };
  const out: Record<string, JsonValue> = {};
  for (const name of fields) {
    const [field = '', key] = name.split('.');
    const value = all[field] ?? null;
    if (key === undefined) out[field] = value;
    else {
      const picked = out[field];
      const base: JsonObject = isObject(picked) ? picked : {};
      const whole: JsonObject = isObject(value) ? value : {};
      out[field] = { ...base, [key]: whole[key] ?? null };
    }
  }
  return out;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}
