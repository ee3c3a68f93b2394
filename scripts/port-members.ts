/**
 * The members of the ports (lib/ports/) and the files that call each, read with the TypeScript
 * compiler: a call is a property access whose symbol is the port's own declaration (a store's
 * implementation of it is not one). Counts the shipped code only (lib/, adapters/, host/, bin/).
 *
 *   node --import=tsx scripts/port-members.ts [--port DataSource] [--single]
 *
 * prints each member with its callers (`--single`: only the members called from one file), then
 * each port's member count.
 */
import { readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SHIPPED = ['lib', 'adapters', 'host', 'bin'];

/** each port: its interface and the file declaring it */
export const PORTS = {
  DataSource: 'lib/ports/dataSource.ts',
  DataSink: 'lib/ports/sink.ts',
  ContractStore: 'lib/ports/contractStore.ts',
  ChangeFeed: 'lib/ports/feed.ts',
  StoreLease: 'lib/ports/lease.ts',
  ChainSource: 'lib/ports/chainSource.ts',
} as const;
export type PortName = keyof typeof PORTS;

const posix = (path: string): string => path.split(sep).join('/');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

export interface PortMember {
  readonly port: PortName;
  readonly name: string;
  readonly optional: boolean;
  /** the shipped files that call it (repo-relative, sorted) */
  readonly callers: readonly string[];
}

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
};

interface Declared {
  readonly port: PortName;
  readonly name: string;
  readonly optional: boolean;
}

/** each port's members (inherited ones included), by their symbols */
function declared(program: ts.Program): Map<ts.Symbol, Declared> {
  const checker = program.getTypeChecker();
  const members = new Map<ts.Symbol, Declared>();
  for (const [port, file] of Object.entries(PORTS) as [PortName, string][]) {
    const source = program.getSourceFile(join(ROOT, file));
    if (source === undefined) throw new Error(`${file} is not in the program`);
    const declaration = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === port);
    if (declaration === undefined) throw new Error(`${file} declares no interface ${port}`);
    for (const symbol of checker.getPropertiesOfType(checker.getTypeAtLocation(declaration.name))) {
      members.set(symbol, { port, name: symbol.name, optional: (symbol.flags & ts.SymbolFlags.Optional) !== 0 });
    }
  }
  return members;
}

/** Every member of every port, in declaration order, with its callers in the shipped code. */
export function portMembers(): PortMember[] {
  const program = ts.createProgram(SHIPPED.flatMap(sources), OPTIONS);
  const checker = program.getTypeChecker();
  const members = new Map([...declared(program)].map(([symbol, d]) => [symbol, { ...d, callers: new Set<string>() }]));
  for (const source of program.getSourceFiles()) {
    const file = posix(relative(ROOT, source.fileName));
    if (file.startsWith('..') || !SHIPPED.some((d) => file.startsWith(`${d}/`))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        const symbol = checker.getSymbolAtLocation(node.name);
        const member = symbol === undefined ? undefined : members.get(symbol);
        if (member !== undefined) member.callers.add(file);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...members.values()].map((m) => ({ ...m, callers: [...m.callers].sort() }));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string' }, single: { type: 'boolean' } } });
  const all = portMembers().filter((m) => values.port === undefined || m.port === values.port);
  for (const m of all) {
    if (values.single === true && m.callers.length !== 1) continue;
    console.log(`${m.port}.${m.name}${m.optional ? '?' : ''}  ${m.callers.length}  ${m.callers.join(' ')}`);
  }
  const ports = [...new Set(all.map((m) => m.port))];
  for (const port of ports) {
    const of = all.filter((m) => m.port === port);
    console.log(`${port}: ${of.length} members (${of.filter((m) => m.optional).length} optional), ${of.filter((m) => m.callers.length === 1).length} called from one file`);
  }
}
