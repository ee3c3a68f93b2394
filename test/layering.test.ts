// The layers of DESIGN.md, checked on every import of every source file (type-only and dynamic
// imports included): lib/ stays pure, nothing that ships imports test/, and the package's code
// imports no package it does not declare as a runtime dependency. And the import graph has no
// circle of modules that load each other, none over 10 files once type imports count, and each
// exported type of lib/ is declared in one module.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  readonly exports: Record<string, string | { readonly import: { readonly default: string } }>;
  readonly bin: Record<string, string>;
  readonly dependencies: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
};
/** optional peer dependencies (solc and its helpers): the code that uses them loads them on demand and serves on without them */
const optionalPeers = new Set(Object.entries(pkg.peerDependenciesMeta ?? {}).flatMap(([name, meta]) => (meta.optional === true ? [name] : [])));

interface Import {
  /** the importing file, relative to the repo root (posix) */
  readonly from: string;
  readonly specifier: string;
  /** for a relative import: the imported file, relative to the repo root (posix) */
  readonly target?: string;
}

const posix = (path: string): string => path.split(sep).join('/');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs|js)$/.test(e.name))
    .map((e) => posix(relative(root, join(e.parentPath, e.name))))
    .sort();
}

function importsOf(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName: specifier }) =>
    specifier.startsWith('.')
      ? { from: file, specifier, target: posix(relative(root, resolve(root, dirname(file), specifier))) }
      : { from: file, specifier },
  );
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name` */
const packageName = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const isBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || builtinModules.includes(packageName(specifier));

const topDir = (path: string): string => path.split('/')[0] ?? '';

const I_O = ['knex', 'koa', '@koa/router', 'koa-compose', 'pg', 'sqlite3', 'ioredis', 'rate-limiter-flexible', 'prom-client'];

interface Layer {
  readonly dir: string;
  /** top-level folders it may import from (relative imports) */
  readonly mayImport: readonly string[];
  /** packages it may import; `undefined`: any declared runtime dependency and Node's modules */
  readonly packages?: readonly string[];
}

const LAYERS: readonly Layer[] = [
  // pure core: its own files, fp-ts, io-ts, viem's pure utilities and abitype's ABI types (viem's own); no I/O package, no node:*
  { dir: 'lib', mayImport: ['lib'], packages: ['fp-ts', 'io-ts', 'viem', 'abitype'] },
  // the fixture chain is built by lib's pure code
  { dir: 'fixture', mayImport: ['lib', 'fixture'], packages: ['viem'] },
  { dir: 'adapters', mayImport: ['lib', 'adapters'] },
  { dir: 'host', mayImport: ['lib', 'adapters', 'host', 'fixture', 'demo'] },
  { dir: 'demo', mayImport: ['lib', 'demo'] },
  { dir: 'bin', mayImport: ['host'] },
];

for (const layer of LAYERS) {
  t.test(`${layer.dir}/ imports only what its layer may`, async (t) => {
    const files = sourceFiles(layer.dir);
    t.ok(files.length > 0, `${layer.dir}/ has source files`);
    const wrong: string[] = [];
    for (const file of files) {
      for (const imp of importsOf(file)) {
        if (imp.target !== undefined) {
          if (!layer.mayImport.includes(topDir(imp.target))) wrong.push(`${file}: ${imp.specifier}`);
        } else if (layer.packages !== undefined) {
          if (!layer.packages.includes(packageName(imp.specifier))) wrong.push(`${file}: ${imp.specifier}`);
        }
      }
    }
    t.same(wrong, [], `${layer.dir}/ may import ${layer.mayImport.join(', ')}/ and ${layer.packages?.join(', ') ?? 'runtime dependencies'}`);
  });
}

t.test('lib/ names no I/O package and no Node module', async (t) => {
  // stated on its own so that the failure says which rule broke
  const io = sourceFiles('lib').flatMap((file) =>
    importsOf(file)
      .filter((i) => i.target === undefined && (isBuiltin(i.specifier) || I_O.includes(packageName(i.specifier))))
      .map((i) => `${file}: ${i.specifier}`),
  );
  t.same(io, []);
});

t.test('no shipped layer imports test/, bench/ or examples/', async (t) => {
  const wrong = LAYERS.flatMap((l) => sourceFiles(l.dir))
    .flatMap(importsOf)
    .filter((i) => i.target !== undefined && ['test', 'bench', 'examples'].includes(topDir(i.target)))
    .map((i) => `${i.from}: ${i.specifier}`);
  t.same(wrong, []);
});

t.test('the code the package ships imports only runtime dependencies', async (t) => {
  // every module reachable from the package's entries (exports and bin), as sources
  const toSource = (built: string): string => built.replace(/^(\.\/)?dist\//, '').replace(/\.js$/, '.ts');
  const modules = Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [] : [e.import.default]));
  const entries = [...modules, ...Object.values(pkg.bin)].map(toSource);
  t.ok(entries.length >= 8, `${entries.length} entries`);
  const seen = new Set<string>();
  const queue = [...entries];
  const undeclared: string[] = [];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imp of importsOf(file)) {
      if (imp.target !== undefined) queue.push(imp.target);
      else if (!isBuiltin(imp.specifier) && !(packageName(imp.specifier) in pkg.dependencies) && !optionalPeers.has(packageName(imp.specifier))) {
        undeclared.push(`${file}: ${imp.specifier}`);
      }
    }
  }
  t.ok(seen.size > entries.length, `${seen.size} modules ship`);
  t.same(undeclared, [], 'every package they import is in "dependencies" (or an optional peer dependency, loaded on demand)');
  const outside = [...seen].filter((f) => !LAYERS.some((l) => topDir(f) === l.dir));
  t.same(outside, [], 'and they all sit in a shipped layer');
});

// ---- import circles ----
// The import graph of the code that ships (lib/, adapters/, host/, bin/), read with the compiler:
// `runtime` keeps the imports that load a module (`import type`, `export type` left out;
// dynamic `import()` kept), `all` keeps type imports too. A circle is a strongly connected
// component (Tarjan) of more than one file.

const GRAPH_DIRS = ['lib', 'adapters', 'host', 'bin'];
const MAX_TYPED_CIRCLE = 10;

interface ImportEdge {
  readonly target: string;
  /** `import type`, `export type`: erased, it loads nothing */
  readonly typeOnly: boolean;
}

const literalText = (node: ts.Node | undefined): string | undefined => (node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined);

function importEdges(file: string, files: ReadonlySet<string>): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      // (verbatimModuleSyntax keeps `import { type A } from …` as a load: only `import type` is erased)
      found.push({ specifier: literalText(node.moduleSpecifier) ?? '', typeOnly: node.importClause?.isTypeOnly === true });
    } else if (ts.isExportDeclaration(node)) {
      const specifier = literalText(node.moduleSpecifier);
      if (specifier !== undefined) found.push({ specifier, typeOnly: node.isTypeOnly });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      found.push({ specifier: literalText(node.moduleReference.expression) ?? '', typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      found.push({ specifier: literalText(node.arguments[0]) ?? '', typeOnly: false });
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      const specifier = ts.isLiteralTypeNode(argument) ? literalText(argument.literal) : undefined;
      if (specifier !== undefined) found.push({ specifier, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.flatMap(({ specifier, typeOnly }) => {
    if (!specifier.startsWith('.')) return [];
    const path = posix(relative(root, resolve(root, dirname(file), specifier)));
    const target = [path, `${path}.ts`, `${path}/index.ts`].find((p) => files.has(p));
    return target === undefined ? [] : [{ target, typeOnly }];
  });
}

/** Tarjan's strongly connected components, iteratively (no recursion depth to run out of). */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = graph.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
          onStack.delete(member);
          component.push(member);
          if (member === frame.node) break;
        }
        components.push(component.sort());
      }
    }
  }
  return components;
}

function importCircles(flavour: 'runtime' | 'all'): string[][] {
  const files = GRAPH_DIRS.flatMap(sourceFiles);
  const known = new Set(files);
  const graph = new Map(
    files.map((file) => [
      file,
      [...new Set(importEdges(file, known).filter((e) => flavour === 'all' || !e.typeOnly).map((e) => e.target))],
    ]),
  );
  return stronglyConnected(graph)
    .filter((c) => c.length > 1)
    .sort((a, b) => b.length - a.length);
}

const describeCircles = (circles: readonly (readonly string[])[]): string =>
  circles
    .slice(0, 3)
    .map((c) => `${c.length} files: ${c.slice(0, 40).join(' ')}${c.length > 40 ? ' …' : ''}`)
    .join('\n');

t.test('the import graph reads every kind of import', async (t) => {
  const files = new Set(GRAPH_DIRS.flatMap(sourceFiles));
  t.ok(files.size > 300, `${files.size} files`);
  const edges = [...files].flatMap((file) => importEdges(file, files));
  t.ok(edges.length > 1500, `${edges.length} relative imports`);
  t.ok(edges.some((e) => e.typeOnly), 'type imports are seen');
  // a dynamic import() is a load (host/stores.ts loads the memory store on demand)
  t.ok(importEdges('host/stores.ts', files).some((e) => e.target === 'adapters/memory/index.ts' && !e.typeOnly));
});

/** the leaves the others name instead of importing each other: they import nothing */
const LEAVES = ['lib/endpoints/names.ts', 'lib/paths.ts', 'lib/request.ts'];

t.test('the leaf modules of lib/ import nothing', async (t) => {
  for (const leaf of LEAVES) t.same(importsOf(leaf), [], leaf);
});

t.test('no runtime import circle', async (t) => {
  const circles = importCircles('runtime');
  t.same(
    circles.map((c) => c.length),
    [],
    `files that load each other, the biggest first:\n${describeCircles(circles)}`,
  );
});

t.test(`no import circle over ${MAX_TYPED_CIRCLE} files, type imports counted`, async (t) => {
  const circles = importCircles('all');
  const big = circles.filter((c) => c.length > MAX_TYPED_CIRCLE);
  t.same(
    big.map((c) => c.length),
    [],
    `circles with type imports, the biggest first (all: ${circles.map((c) => c.length).join(', ') || 'none'}):\n${describeCircles(big)}`,
  );
});

// ---- one declaration per exported type ----

/** exported type aliases and interfaces of lib/, by name → the files declaring them */
function exportedTypeDeclarations(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const file of sourceFiles('lib')) {
    const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      if (!ts.isTypeAliasDeclaration(statement) && !ts.isInterfaceDeclaration(statement)) continue;
      if (!(ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const name = statement.name.text;
      byName.set(name, [...(byName.get(name) ?? []), file]);
    }
  }
  return byName;
}

/**
 * Different types that share a name, each in its own module (not one type declared twice):
 * the list may only shrink. `Address` is the records' plain alias beside the brand of lib/hashes.ts.
 */
const HOMONYMS = new Set(['Address', 'BlockFacts', 'BlockRef', 'Decoded', 'MatchKind', 'VerificationJob', 'VerifiedContract']);

t.test('an exported type of lib/ is declared in one module', async (t) => {
  const declarations = exportedTypeDeclarations();
  t.ok(declarations.size > 300, `${declarations.size} exported type names`);
  t.same(declarations.get('EndpointName'), ['lib/endpoints/names.ts'], 'EndpointName, in the leaf of the endpoint names');
  const twice = [...declarations].filter(([name, files]) => files.length > 1 && !HOMONYMS.has(name)).map(([name, files]) => `${name}: ${files.join(', ')}`);
  t.same(twice, [], 'declared in more than one module (import it from the one, or name the other differently)');
});
