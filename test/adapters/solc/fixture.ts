/**
 * The solc adapter's fixture: contract sources (an ERC-20 with constructor arguments, a linked
 * library, immutables, an EIP-1967 proxy and its implementation), compiled once with solc-js in
 * the test process, deployed to anvil; a compiler directory filled from npm's solc packages; a
 * native-solc shim (a script answering `--version` and `--standard-json` with solc-js).
 */
import { chmod, copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAbiParameters, encodeFunctionData } from 'viem';
import type { Abi } from 'viem';
import type { Address, Hex } from '../../../lib/domain/records.ts';
import type { StandardJsonInput } from '../../../lib/contracts/verifier.ts';
import { EMPTY_HEX, hex } from '../../../lib/domain/hex.ts';
import { DEV_ACCOUNT0, rpc } from '../../indexer/helpers.ts';

const require = createRequire(import.meta.url);

export const TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity >=0.8.0;

contract Token {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory _name, string memory _symbol, uint256 supply) {
        name = _name;
        symbol = _symbol;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value;
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
        return true;
    }
}
`;

export const LIBRARY = `// SPDX-License-Identifier: Apache-2.0
pragma solidity >=0.8.0;

library MathLib {
    function triple(uint256 a) external pure returns (uint256) {
        return a * 3;
    }
}

contract UsesLib {
    function run(uint256 a) external pure returns (uint256) {
        return MathLib.triple(a);
    }
}
`;

export const IMMUTABLES = `// SPDX-License-Identifier: GPL-3.0-or-later
pragma solidity >=0.8.0;

contract Immutables {
    uint256 public immutable limit;
    address public immutable owner;

    constructor(uint256 _limit) {
        limit = _limit;
        owner = msg.sender;
    }

    function under(uint256 v) external view returns (bool) {
        return v < limit;
    }
}
`;

export const PROXY = `// SPDX-License-Identifier: MIT
pragma solidity >=0.8.0;

contract Implementation {
    uint256 public value;

    function setValue(uint256 v) external {
        value = v;
    }
}

contract Proxy1967 {
    bytes32 internal constant SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;

    constructor(address implementation, bytes memory data) {
        assembly { sstore(SLOT, implementation) }
        if (data.length > 0) {
            (bool ok, ) = implementation.delegatecall(data);
            require(ok, "init failed");
        }
    }

    fallback() external payable {
        assembly {
            let impl := sload(SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok case 0 { revert(0, returndatasize()) } default { return(0, returndatasize()) }
        }
    }
}
`;

export const SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' } as const;

export const standardJson = (sources: Readonly<Record<string, string>>, settings: Readonly<Record<string, unknown>> = SETTINGS): StandardJsonInput => ({
  language: 'Solidity',
  sources: Object.fromEntries(Object.entries(sources).map(([f, content]) => [f, { content }])),
  settings,
});

export const SOURCES = {
  'src/Token.sol': TOKEN,
  'src/MathLib.sol': LIBRARY,
  'src/Immutables.sol': IMMUTABLES,
  'src/Proxy.sol': PROXY,
} as const;

export interface Built {
  readonly abi: Abi;
  /** creation bytecode (hex without 0x), library placeholders unlinked */
  readonly bytecode: string;
}

type Compile = (input: string) => string;
const compilers = new Map<string, { compile: Compile; version: () => string }>();
function solcjs(pkg: 'solc' | 'solc-0.8.19'): { compile: Compile; version: () => string } {
  let solc = compilers.get(pkg);
  if (solc === undefined) {
    solc = require(pkg) as { compile: Compile; version: () => string };
    compilers.set(pkg, solc);
  }
  return solc;
}

/** Compile in the test process (what a developer's toolchain would do), by `file:Name`. */
export function build(input: StandardJsonInput, pkg: 'solc' | 'solc-0.8.19' = 'solc'): Record<string, Built> {
  const full = { ...input, settings: { ...input.settings, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } } };
  const out = JSON.parse(solcjs(pkg).compile(JSON.stringify(full))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const built: Record<string, Built> = {};
  for (const [file, byName] of Object.entries(out.contracts)) {
    for (const [name, c] of Object.entries(byName)) built[`${file}:${name}`] = { abi: c.abi, bytecode: c.evm.bytecode.object };
  }
  return built;
}

export const solcVersion = (pkg: 'solc' | 'solc-0.8.19'): string => solcjs(pkg).version();

/** solc's output with the selection build tools ask for (Hardhat's and Foundry's defaults: ABI, metadata, both codes with their references, method ids). */
export const TOOL_OUTPUT = ['abi', 'metadata', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers'] as const;

/**
 * Compile as a build tool does (TOOL_OUTPUT and the sources' ids) and answer the settings
 * compiled with and solc's output verbatim: what a build-info file holds.
 */
export function buildOutput(input: StandardJsonInput, pkg: 'solc' | 'solc-0.8.19' = 'solc'): { readonly settings: Record<string, unknown>; readonly output: Record<string, unknown> } {
  const settings = { ...input.settings, outputSelection: { '*': { '*': [...TOOL_OUTPUT], '': ['ast'] } } };
  const output = JSON.parse(solcjs(pkg).compile(JSON.stringify({ ...input, settings }))) as Record<string, unknown> & { errors?: { severity: string; formattedMessage: string }[] };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return { settings, output };
}

export interface Deployed {
  readonly address: Address;
  readonly code: Hex;
  /** the creation transaction's input, read back from the node */
  readonly input: Hex;
}

export async function deploy(url: string, bytecode: string, args: Hex = EMPTY_HEX): Promise<Deployed> {
  const data = `0x${bytecode}${args.slice(2)}` as Hex;
  const hash = (await rpc(url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT0, data, gas: '0x1c9c380' }])) as Hex;
  for (let i = 0; i < 200; i++) {
    const receipt = (await rpc(url, 'eth_getTransactionReceipt', [hash])) as { contractAddress: Address; status: Hex } | null;
    if (receipt !== null) {
      if (receipt.status !== hex('0x1')) throw new Error(`deployment ${hash} reverted`);
      const code = (await rpc(url, 'eth_getCode', [receipt.contractAddress, 'latest'])) as Hex;
      const tx = (await rpc(url, 'eth_getTransactionByHash', [hash])) as { input: Hex };
      return { address: receipt.contractAddress, code, input: tx.input };
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`deployment ${hash} not mined`);
}

/** Replace every placeholder of `library` (`__$<34 hex>$__`) with its address. */
export function link(bytecode: string, address: Address): string {
  return bytecode.replace(/__\$[0-9a-f]{34}\$__/g, address.slice(2).toLowerCase());
}

export const tokenArgs = (): Hex =>
  hex(encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], ['Scout Token', 'SCT', 1_000_000n * 10n ** 18n]));
export const proxyArgs = (implementation: Address, abi: Abi): Hex =>
  hex(encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [implementation, encodeFunctionData({ abi, functionName: 'setValue', args: [42n] })]));

/** A compiler directory holding npm's solc builds as `soljson-v<version>.js`. */
export async function compilerDir(versions: readonly ('solc' | 'solc-0.8.19')[] = ['solc', 'solc-0.8.19']): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'scoutkit-compilers-'));
  for (const pkg of versions) {
    const { version } = require(`${pkg}/package.json`) as { version: string };
    await copyFile(require.resolve(`${pkg}/soljson.js`), join(dir, `soljson-v${version}.js`));
  }
  return dir;
}

/**
 * A native-solc stand-in: an executable `solc-<version>` script answering `--version` and
 * `--standard-json` (stdin → stdout) with npm's solc-js (forge runs solc this way too). The
 * version line is written into the script (`--version` answers without loading solc-js, as fast
 * as a native solc), solc's own long version: `0.8.37+commit.f401782d.Emscripten.clang`; it runs
 * with NODE_OPTIONS emptied, as a native binary would ignore them.
 */
export async function solcShim(dir: string, pkg: 'solc' | 'solc-0.8.19' = 'solc'): Promise<string> {
  const { version } = require(`${pkg}/package.json`) as { version: string };
  const path = join(dir, `solc-${version}`);
  const solcPath = require.resolve(pkg);
  await writeFile(
    path,
    // NODE_OPTIONS emptied: a test runner's loaders (tap's, tsx's), which a host passes down, are no business of a compiler's
    `#!/usr/bin/env -S NODE_OPTIONS= ${process.execPath}
const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write('solc, the solidity compiler commandline interface\\nVersion: ' + ${JSON.stringify(solcVersion(pkg))} + '\\n');
} else if (args.includes('--standard-json')) {
  const solc = require(${JSON.stringify(solcPath)});
  const chunks = [];
  process.stdin.on('data', (c) => chunks.push(c));
  process.stdin.on('end', () => process.stdout.write(solc.compile(Buffer.concat(chunks).toString('utf8'))));
} else {
  process.stderr.write('this shim answers only --version and --standard-json\\n');
  process.exit(1);
}
`,
  );
  await chmod(path, 0o755);
  return path;
}
