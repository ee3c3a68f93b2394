/**
 * Migrations are frozen: a migration that has run on one store must do the same on every store
 * that runs it later, so it carries the SQL and logic it ran with. Checked on every import
 * (type-only and dynamic ones included: a type that moves can still stop an old migration
 * from compiling):
 * - a file under adapters/sql/migrations/ imports only files under migrations/ (its own
 *   frozen helpers, migrations/frozen/) and npm packages the package depends on (knex);
 * - no file outside migrations/ that ships (or the bench) imports from migrations/, but the
 *   store opener (adapters/sql/index.ts), which imports the list, migrations/index.ts;
 * - the list holds every NNN_name.ts file, in order, each named after its file.
 * Tests may import a migration to run it (a backfill against what the writer keeps).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import ts from 'typescript';
import { MIGRATIONS } from '../../../adapters/sql/migrations/index.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const MIGRATIONS_DIR = 'adapters/sql/migrations';
const OPENER = 'adapters/sql/index.ts';
const LIST = `${MIGRATIONS_DIR}/index.ts`;
/** what ships, and the bench (it measures live code); test/ is left out */
const LIVE_DIRS = ['lib', 'adapters', 'host', 'bin', 'fixture', 'demo', 'bench'];

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { readonly dependencies: Record<string, string> };
const posix = (path: string): string => path.split(sep).join('/');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs|js)$/.test(e.name))
    .map((e) => posix(relative(root, join(e.parentPath, e.name))))
    .sort();
}

interface Import {
  readonly from: string;
  readonly specifier: string;
  /** a relative import's file, relative to the repo root */
  readonly target?: string;
}

function importsOf(file: string, text: string): Import[] {
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName: specifier }) =>
    specifier.startsWith('.') ? { from: file, specifier, target: posix(relative(root, resolve(root, dirname(file), specifier))) } : { from: file, specifier },
  );
}

const inMigrations = (path: string): boolean => path.startsWith(`${MIGRATIONS_DIR}/`);
const packageName = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The imports of a migration file that reach outside migrations/ (npm dependencies allowed). */
function leavingMigrations(file: string, text: string): string[] {
  return importsOf(file, text)
    .filter((i) => (i.target === undefined ? !(packageName(i.specifier) in pkg.dependencies) : !inMigrations(i.target)))
    .map((i) => `${i.from}: ${i.specifier}`);
}

/** The imports of a live file that reach into migrations/ (the opener may import the list). */
function enteringMigrations(file: string, text: string): string[] {
  return importsOf(file, text)
    .filter((i) => i.target !== undefined && inMigrations(i.target) && !(file === OPENER && i.target === LIST))
    .map((i) => `${i.from}: ${i.specifier}`);
}

const read = (file: string): string => readFileSync(join(root, file), 'utf8');

t.test('the checks catch what they look for', async (t) => {
  const migration = `${MIGRATIONS_DIR}/999_example.ts`;
  t.same(
    leavingMigrations(
      migration,
      "import type { Knex } from 'knex';\nimport { dialectOf } from './frozen/dialect.ts';\nimport type { Hash } from '../../../lib/domain/records.ts';\nimport { recountAll } from '../counters.ts';\nimport koa from 'koa';\nimport { readFileSync } from 'node:fs';",
    ),
    [`${migration}: ../../../lib/domain/records.ts`, `${migration}: ../counters.ts`, `${migration}: node:fs`],
    'a migration importing live code (even a type) or a Node module is caught; knex, koa and migrations/ files pass',
  );
  t.same(
    enteringMigrations('adapters/sql/write.ts', "import { tokenSearchSelect } from './migrations/010_token_search.ts';\nimport { insertRows } from './sql.ts';"),
    ['adapters/sql/write.ts: ./migrations/010_token_search.ts'],
    'live code importing a migration is caught',
  );
  t.same(enteringMigrations(OPENER, "import { migratorConfig } from './migrations/index.ts';"), [], 'the opener may import the list');
  t.same(
    enteringMigrations('adapters/sql/read.ts', "import { migratorConfig } from './migrations/index.ts';"),
    ['adapters/sql/read.ts: ./migrations/index.ts'],
    'only the opener may',
  );
});

t.test('a migration imports nothing outside migrations/ but npm packages', async (t) => {
  const files = sourceFiles(MIGRATIONS_DIR);
  t.ok(files.length >= MIGRATIONS.length + 1, `${files.length} files under ${MIGRATIONS_DIR}/`);
  t.same(
    files.flatMap((f) => leavingMigrations(f, read(f))),
    [],
    'copy what a migration needs into it (or into migrations/frozen/) instead',
  );
});

t.test('live code imports no migration (the store opener imports the list)', async (t) => {
  const files = LIVE_DIRS.flatMap(sourceFiles).filter((f) => !inMigrations(f));
  t.ok(files.includes(OPENER), `${files.length} live files, the opener among them`);
  t.same(
    files.flatMap((f) => enteringMigrations(f, read(f))),
    [],
    'move what live code needs out of the migration (the migration keeps its own copy)',
  );
  t.ok(
    importsOf(OPENER, read(OPENER)).some((i) => i.target === LIST),
    'the opener does import the list (else this test checks an exception that no longer exists)',
  );
});

t.test('the list holds every migration file, in order, named after its file', async (t) => {
  const numbered = sourceFiles(MIGRATIONS_DIR)
    .map((f) => f.slice(MIGRATIONS_DIR.length + 1))
    .filter((f) => /^\d{3}_\w+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''));
  t.same(
    MIGRATIONS.map((m) => m.name),
    numbered,
  );
});
