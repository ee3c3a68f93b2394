/**
 * `npm run build:signatures`: the signature table for contracts nobody verified, generated from
 * the ABIs well-known npm packages ship (devDependencies: their compiled artifacts' `abi`) and
 * viem's built-in ABIs, into the checked-in module lib/signatures/table.ts.
 *
 * Every function, error and event is kept once per canonical signature (types only), the first
 * package in PACKAGES order naming its parameters; functions and errors by selector, events by
 * topic0, as `name(type [indexed ]name, …)` text (abitype's formatting, which viem parses back).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AbiEvent, AbiFunction, AbiParameter } from 'abitype';
import { formatAbiParameters, parseAbiParameter } from 'abitype';
import { erc1155Abi, erc20Abi, erc4626Abi, erc721Abi, multicall3Abi, toEventSelector, toFunctionSelector } from 'viem';

/** the packages read, in priority order (an earlier one names a shared signature's parameters) */
const PACKAGES = [
  '@openzeppelin/contracts',
  '@uniswap/v2-core',
  '@uniswap/v2-periphery',
  '@uniswap/v3-core',
  '@uniswap/v3-periphery',
  '@uniswap/universal-router',
  '@safe-global/safe-deployments',
  '@account-abstraction/contracts',
] as const;

const VIEM_ABIS = { erc20Abi, erc721Abi, erc1155Abi, erc4626Abi, multicall3Abi } as const;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'lib', 'signatures', 'table.ts');
const require = createRequire(join(root, 'package.json'));

async function* jsonFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* jsonFiles(path);
    } else if (entry.name.endsWith('.json') && entry.name !== 'package.json' && !entry.name.endsWith('.dbg.json')) yield path;
  }
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** The `abi` of an artifact (Hardhat, Truffle, Foundry), or a bare ABI array; null for anything else. */
function abiOf(json: unknown): readonly unknown[] | null {
  if (Array.isArray(json)) return json.every((i) => isObject(i) && typeof i['type'] === 'string') ? json : null;
  if (isObject(json) && Array.isArray(json['abi'])) return json['abi'];
  return null;
}

const functions = new Map<string, string[]>();
const errors = new Map<string, string[]>();
const events = new Map<string, string[]>();
const canonical = new Set<string>();
const sources: string[] = [];

const canonicalOf = (kind: string, name: string, inputs: readonly AbiParameter[]): string =>
  `${kind} ${name}(${formatAbiParameters(inputs.map((p) => ({ ...p, name: undefined, indexed: undefined })) as unknown as readonly [AbiParameter])})${kind === 'event' ? JSON.stringify(inputs.map((p) => ('indexed' in p ? p.indexed === true : false))) : ''}`;

/** A name viem's parser refuses (a Solidity keyword, `bytes error`) gets a trailing `_`, so the table's text parses back. */
function parsable(p: AbiParameter): AbiParameter {
  let name = p.name;
  if (name !== undefined && name !== '') {
    try {
      parseAbiParameter(`uint256 ${name}`);
    } catch {
      name = `${name}_`;
    }
  }
  const components = 'components' in p ? { components: p.components.map(parsable) } : {};
  return { ...p, ...components, name } as AbiParameter;
}

function add(item: unknown): void {
  if (!isObject(item) || typeof item['name'] !== 'string') return;
  const type = item['type'];
  if (type !== 'function' && type !== 'event' && type !== 'error') return;
  if (type === 'event' && item['anonymous'] === true) return;
  const inputs = ((item['inputs'] ?? []) as readonly AbiParameter[]).map(parsable);
  const name = item['name'];
  const key = canonicalOf(type, name, inputs);
  if (canonical.has(key)) return;
  canonical.add(key);
  const text = `${name}(${inputs.length === 0 ? '' : formatAbiParameters(inputs as unknown as readonly [AbiParameter])})`;
  if (type === 'event') {
    const topic = toEventSelector({ type: 'event', name, inputs } as AbiEvent);
    events.set(topic, [...(events.get(topic) ?? []), text]);
  } else {
    const selector = toFunctionSelector({ type: 'function', name, inputs, outputs: [], stateMutability: 'nonpayable' } as AbiFunction);
    const table = type === 'function' ? functions : errors;
    table.set(selector, [...(table.get(selector) ?? []), text]);
  }
}

for (const pkg of PACKAGES) {
  let dir: string;
  let version: string;
  try {
    const manifest = require.resolve(`${pkg}/package.json`);
    dir = dirname(manifest);
    version = (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
  } catch {
    process.stderr.write(`skipped ${pkg}: not installed\n`);
    continue;
  }
  let files = 0;
  for await (const file of jsonFiles(dir)) {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch {
      continue;
    }
    const abi = abiOf(json);
    if (abi === null) continue;
    files++;
    for (const item of abi) add(item);
  }
  sources.push(`${pkg}@${version} (${files} ABIs)`);
}
for (const [name, abi] of Object.entries(VIEM_ABIS)) for (const item of abi) add(item);
const viemVersion = (JSON.parse(await readFile(require.resolve('viem/package.json'), 'utf8')) as { version: string }).version;
sources.push(`viem@${viemVersion} (${Object.keys(VIEM_ABIS).join(', ')})`);

const sorted = (m: Map<string, string[]>): Record<string, string[]> => Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
const body = `/**
 * GENERATED by scripts/build-signatures.ts (\`npm run build:signatures\`): do not edit.
 * The signatures of the functions, errors (by selector) and events (by topic0) in the ABIs of:
${sources.map((s) => ` *   ${s}`).join('\n')}
 * ${functions.size} function selectors, ${errors.size} error selectors, ${events.size} event topics.
 */
export const FUNCTIONS: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(sorted(functions))};

export const ERRORS: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(sorted(errors))};

export const EVENTS: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(sorted(events))};
`;
await writeFile(out, body);
process.stdout.write(`wrote ${out}: ${functions.size} functions, ${errors.size} errors, ${events.size} events, ${body.length} bytes\n${sources.join('\n')}\n`);
