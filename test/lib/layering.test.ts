/**
 * The layers of DESIGN.md, read from the sources: lib/ imports nothing of adapters/, host/ or
 * test/, and no I/O package (knex, koa, pg, sqlite3, node:*, ...); adapters/ never import host/
 * or test/. (host/ → test/ is refused once the fixture chain ships as a module of its own:
 * host/stores.ts and host/commands/seed.ts still load test/fixtures/chain.ts.)
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** Every import specifier of a file: static, re-exports and dynamic imports. */
function specifiers(file: string): string[] {
  return specifiersOf(readFileSync(file, 'utf8'));
}

function specifiersOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"]([^'"]+)['"]/g)) out.push(m[1]);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) out.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]);
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, dir, f));
}

/** The top folder an import lands in (relative imports), or the package name. */
function target(file: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  return relative(root, resolve(dirname(file), spec)).split('/')[0];
}

const IO_PACKAGES = /^(node:|knex$|koa|@koa\/|pg$|pg-|sqlite3$|better-sqlite3$|ioredis$|redis$|fs$|http$|https$|net$|child_process$)/;

t.test('lib/ is pure: no adapters/, host/, test/, I/O packages', async (t) => {
  const files = sources('lib');
  t.ok(files.length > 40, `${files.length} files of lib/ read`);
  const bad: string[] = [];
  let seen = 0;
  for (const f of files) {
    for (const s of specifiers(f)) {
      seen++;
      const to = target(f, s);
      if (['adapters', 'host', 'test', 'bench', 'demo', 'examples'].includes(to) || IO_PACKAGES.test(to)) bad.push(`${relative(root, f)} → ${s}`);
    }
  }
  t.ok(seen > files.length, `${seen} imports parsed`);
  t.same(bad, [], 'lib/ imports only lib/ and pure packages');
});

t.test('adapters/ never import host/ or test/', async (t) => {
  const files = sources('adapters');
  t.ok(files.length > 20, `${files.length} files of adapters/ read`);
  const bad: string[] = [];
  for (const f of files) {
    for (const s of specifiers(f)) {
      if (['host', 'test', 'bench', 'demo'].includes(target(f, s))) bad.push(`${relative(root, f)} → ${s}`);
    }
  }
  t.same(bad, [], 'adapters/ import lib/ and their own files');
});

t.test('the checks see a violation', async (t) => {
  const probe = join(root, 'lib', 'ports.ts');
  t.equal(target(probe, '../adapters/sql/index.ts'), 'adapters');
  t.equal(target(probe, './domain/records.ts'), 'lib');
  t.ok(specifiers(probe).includes('./domain/records.ts'), 'multi-line type imports are read');
  t.same(
    specifiersOf(`import t from 'tap';\nexport { x } from './x.ts';\nimport './side.ts';\nconst m = await import('../test/y.ts');`),
    ['tap', './x.ts', './side.ts', '../test/y.ts'],
    'static, re-export, bare and dynamic imports are read',
  );
  t.ok(IO_PACKAGES.test('node:fs') && IO_PACKAGES.test('knex') && IO_PACKAGES.test('koa'), 'I/O packages are recognised');
  t.notOk(IO_PACKAGES.test('viem') || IO_PACKAGES.test('fp-ts/lib/Either.js') || IO_PACKAGES.test('io-ts'), 'pure packages pass');
});
