// The layers of DESIGN.md, checked on every import of every source file (type-only and dynamic
// imports included): lib/ stays pure, nothing that ships imports test/, and the package's code
// imports no package it does not declare as a runtime dependency.
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
