// The package as a user installs it: `npm run build` (unless dist/ is current, as npm test
// leaves it), `npm pack`, a fresh project with nothing else installs the tarball, and there
// plain node imports every entry, tsc type-checks a TypeScript consumer (node16 and bundler resolution), the `scoutkit` bin serves the fixture
// chain over HTTP, and publint and arethetypeswrong find no problem in the tarball. A CommonJS
// project's require() is told the package is ESM only. The imports, the CommonJS check, the
// shipped example and the server run under Node 22 and 24 too (test/support/nodes.ts).
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import t from 'tap';
import { HEAD_BLOCK } from '../../fixture/index.ts';
import { installTarball, packScoutkit, repoBin, repoRoot, run, startServe } from '../support/package.ts';
import { otherNodes } from '../support/nodes.ts';

interface Conditions {
  readonly types: string;
  readonly default: string;
}
const pkg = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
  readonly exports: Record<string, string | { readonly import: Conditions; readonly require: Conditions }>;
  readonly bin: Record<string, string>;
  readonly files: readonly string[];
};
const entries = Object.entries(pkg.exports).flatMap(([path, target]) =>
  typeof target === 'string'
    ? []
    : [{ specifier: `scoutkit${path.slice(1)}`, types: target.import.types, import: target.import.default, require: target.require.default, requireTypes: target.require.types }],
);
// the node running this suite, then Node 22 and 24
const nodes = [{ version: process.version, path: process.execPath }, ...(await otherNodes())];

const work = await mkdtemp(join(tmpdir(), 'scoutkit-package-'));
t.teardown(() => rm(work, { recursive: true, force: true }));
const project = join(work, 'consumer');

const packed = await packScoutkit(work);
t.comment(`${packed.buildMs === null ? 'dist/ current, not built again' : `build ${(packed.buildMs / 1000).toFixed(1)} s`}; tarball ${(packed.size / 1e3).toFixed(0)} kB, unpacked ${(packed.unpackedSize / 1e6).toFixed(2)} MB, ${packed.files.length} files`);

// every step that takes long runs before the first subtest. sqlite3 cannot download its
// prebuilt binary here and would compile from source (2-3 minutes, measured by
// `npm run bench:package`): the install skips install scripts and takes this repo's sqlite3
// binary of the same version instead (see installTarball); the test below checks that sqlite3
// is the only package whose install script that skips (besides @scarf/scarf's telemetry, denied).
const installed = await installTarball(project, packed.tarball, 'reuse');
t.comment(`install into a fresh project: ${(installed.ms / 1000).toFixed(1)} s (install scripts skipped: ${installed.installScripts.join(', ')})`);

t.test('the tarball holds the built package, its documents and examples, and nothing else', async (t) => {
  const strip = (p: string): string => p.replace(/^\.\//, '');
  const dirs = ['dist/', 'cjs/', 'docs/', 'examples/'];
  // bench/cold-pages.svg: the plot RESULTS links to
  const documents = ['package.json', 'README.md', 'LICENSE', 'bench/RESULTS.md', 'bench/cold-pages.svg'];
  t.same(pkg.files, [...dirs.map((d) => d.slice(0, -1)), 'bench/RESULTS.md', 'bench/cold-pages.svg'], 'package.json "files"');
  const outside = packed.files.filter((f) => !dirs.some((d) => f.startsWith(d)) && !documents.includes(f));
  t.same(outside, [], 'only dist/, cjs/ (the ESM-only notice), docs/, examples/, package.json, README.md, bench/RESULTS.md and its plot (and a LICENSE)');
  t.same(packed.files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts') && !f.startsWith('examples/')), [], 'no TypeScript sources but the examples');
  t.same(packed.files.filter((f) => /(^|\/)test\//.test(f) || (f.startsWith('bench/') && !documents.includes(f))), [], 'no tests, no benchmark code');
  for (const dir of ['docs', 'examples']) {
    const inRepo = (await readdir(join(repoRoot, dir))).map((f) => `${dir}/${f}`).sort();
    t.same(packed.files.filter((f) => f.startsWith(`${dir}/`)), inRepo, `every file of ${dir}/`);
  }
  for (const e of entries) {
    t.ok(packed.files.includes(strip(e.import)), `${e.specifier}: ${e.import}`);
    t.ok(packed.files.includes(strip(e.types)), `${e.specifier}: ${e.types}`);
    t.ok(packed.files.includes(strip(e.require)), `${e.specifier}: ${e.require} (require: the ESM-only notice)`);
    t.ok(packed.files.includes(strip(e.requireTypes)), `${e.specifier}: ${e.requireTypes}`);
  }
  for (const bin of Object.values(pkg.bin)) t.ok(packed.files.includes(strip(bin)), `bin ${bin}`);
  t.ok(entries.length >= 7, `${entries.length} entries`);
});

t.test('every relative link of the shipped documents names a shipped file', async (t) => {
  const documents = packed.files.filter((f) => f.endsWith('.md'));
  t.ok(documents.includes('README.md') && documents.some((f) => f.startsWith('docs/')), `${documents.length} documents`);
  for (const doc of documents) {
    const text = await readFile(join(project, 'node_modules', 'scoutkit', doc), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (target === undefined || /^[a-z]+:|^#/i.test(target)) continue;
      const file = normalize(join(dirname(doc), target.replace(/#.*$/, ''))).replace(/\/$/, '');
      t.ok(packed.files.includes(file) || packed.files.some((f) => f.startsWith(`${file}/`)), `${doc}: ${target}`);
    }
  }
});

t.test('publint finds nothing', async (t) => {
  const { stdout } = await run(repoBin('publint'), [packed.tarball, '--strict'], work);
  t.match(stdout, /All good/);
});

t.test('arethetypeswrong finds nothing (ESM only: node16 from ESM, bundler)', async (t) => {
  // the package is ESM only ("import" conditions, Node >= 20): CommonJS and node10 resolution
  // are out of scope, which is what attw's esm-only profile means
  const { stdout } = await run(repoBin('attw'), [packed.tarball, '--profile', 'esm-only', '--format', 'json'], work);
  const report = JSON.parse(stdout) as {
    analysis: { problems: { kind: string; entrypoint: string; resolutionKind?: string }[]; entrypoints: Record<string, unknown> };
  };
  const ignored = ['node10', 'node16-cjs'];
  t.same(report.analysis.problems.filter((p) => !ignored.includes(p.resolutionKind ?? '')), [], 'no problems (attw also exits 0)');
  const analysed = Object.keys(report.analysis.entrypoints).filter((e) => e !== './package.json');
  t.same(analysed.sort(), entries.map((e) => `.${e.specifier.slice('scoutkit'.length)}`).sort(), 'every entry analysed');
});

t.test('installed alone: its dependencies, no dev tools', async (t) => {
  const have = (name: string): boolean => existsSync(join(project, 'node_modules', name, 'package.json'));
  t.ok(have('scoutkit') && have('koa') && have('knex') && have('viem'), 'scoutkit and its dependencies');
  for (const dev of ['tsx', 'solc', 'typescript', 'tap']) t.notOk(have(dev), `no ${dev}`);
  // cbor-extract: cbor-x's optional native decoder (scoutkit → @ethereum-sourcify/bytecode-utils → cbor-x), not needed: cbor-x decodes in JS without it
  t.same(installed.installScripts, ['@scarf/scarf', 'cbor-extract', 'sqlite3'], 'the only install scripts: sqlite3 (its binary is reused), cbor-x’s optional native decoder and a denied telemetry ping');
});

t.test('plain node imports every entry (each Node version)', async (t) => {
  const script = [
    ...entries.map((e, i) => `import * as m${i} from '${e.specifier}';`),
    `const modules = { ${entries.map((e, i) => `'${e.specifier}': m${i}`).join(', ')} };`,
    `const explorer = m0.createExplorer({ chains: { '1': await (async () => { const s = modules['scoutkit/memory'].createMemoryStore(); await modules['scoutkit/fixture'].loadFixtureChain(s); return s; })() } });`,
    `const block = await explorer.handle({ path: '/api/v2/blocks/${HEAD_BLOCK}' });`,
    `console.log(JSON.stringify({ exports: Object.fromEntries(Object.entries(modules).map(([k, m]) => [k, Object.keys(m).length])), status: block.status, height: block.body.height }));`,
  ].join('\n');
  t.equal(entries[0]?.specifier, 'scoutkit', 'the root entry first');
  await writeFile(join(project, 'entries.mjs'), `${script}\n`);
  for (const node of nodes) {
    const { stdout } = await run(node.path, ['entries.mjs'], project);
    const out = JSON.parse(stdout) as { exports: Record<string, number>; status: number; height: number };
    for (const e of entries) t.ok((out.exports[e.specifier] ?? 0) > 0, `${node.version} ${e.specifier}: ${out.exports[e.specifier]} exports`);
    t.equal(out.status, 200);
    t.equal(out.height, HEAD_BLOCK, `${node.version}: a block of the fixture chain, through the library`);
  }
});

t.test('CommonJS: require() says the package is ESM only; import() works (each Node version)', async (t) => {
  // a project as `npm init -y` makes it: CommonJS
  const cjs = join(project, 'cjs-consumer');
  await mkdir(cjs, { recursive: true });
  await writeFile(join(cjs, 'package.json'), `${JSON.stringify({ name: 'cjs-consumer', version: '1.0.0', main: 'index.js', type: 'commonjs' }, null, 2)}\n`);
  // every entry's require, caught, in one process per version
  const tryAll = `const out = {}; for (const s of ${JSON.stringify(entries.map((e) => e.specifier))}) { try { require(s); out[s] = 'loaded'; } catch (e) { out[s] = e.code + ' ' + e.message; } } console.log(JSON.stringify(out));`;
  for (const node of nodes) {
    // as a user meets it: uncaught
    const failed = await run(node.path, ['-e', `require('scoutkit')`], cjs).then(
      () => 'it loaded',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    t.match(failed, `scoutkit is ESM only: require('scoutkit') cannot load it`, `${node.version}: node -e "require('scoutkit')" fails, saying why`);
    t.match(failed, `await import('scoutkit')`, 'and what to do');
    const messages = JSON.parse((await run(node.path, ['-e', tryAll], cjs)).stdout) as Record<string, string>;
    for (const e of entries) {
      t.match(messages[e.specifier], `ERR_REQUIRE_ESM ${e.specifier} is ESM only: require('${e.specifier}') cannot load it`, `${node.version}: require('${e.specifier}')`);
    }
    const { stdout } = await run(node.path, ['-e', `import('scoutkit').then((m) => console.log(typeof m.createExplorer))`], cjs);
    t.equal(stdout.trim(), 'function', `${node.version}: import('scoutkit') from CommonJS`);
  }
});

t.test('a shipped example, copied into a project, runs under Node 24 (type stripping)', async (t) => {
  const node24 = nodes.find((n) => n.version.startsWith('v24.'));
  if (node24 === undefined) return t.pass('no Node 24 off CI (see the loud line)');
  const dir = join(project, 'my-example');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'my-example', private: true, type: 'module' })}\n`);
  for (const f of ['chain.ts', 'library-calls.ts']) await copyFile(join(project, 'node_modules', 'scoutkit', 'examples', f), join(dir, f));
  const { stdout } = await run(node24.path, ['library-calls.ts'], dir);
  t.match(stdout, /^GET \/api\/v2\/blocks 200 /m, 'the blocks list');
  t.match(stdout, /^GET \/api\/v2\/blocks\/not-a-block 422 /m, 'a bad path is a 422, not an exception');
});

t.test('a TypeScript consumer type-checks (node16 and bundler)', async (t) => {
  await writeFile(
    join(project, 'consumer.ts'),
    `import { createExplorer, explorerClient, toJson } from 'scoutkit';
import type { DataSource, ExplorerResponse } from 'scoutkit';
import { createMemoryStore } from 'scoutkit/memory';
import { openSqlStore } from 'scoutkit/sql';
import type { SqlStore } from 'scoutkit/sql';
import { createRpcChainSource } from 'scoutkit/rpc';
import { createIndexer } from 'scoutkit/indexer';
import { createServer, explorerMiddleware } from 'scoutkit/host';
import { HEAD_BLOCK, loadFixtureChain } from 'scoutkit/fixture';
import type { FixtureChain } from 'scoutkit/fixture';

const store = createMemoryStore();
const chain: FixtureChain = await loadFixtureChain(store);
const source: DataSource = store;
const explorer = createExplorer({ chains: { '1': source } });
const page: ExplorerResponse = await explorer.handle({ path: '/api/v2/blocks/' + HEAD_BLOCK });
const status: number = page.status;
const text: string = toJson(page.body);
const api = explorerClient(explorer);
// @ts-expect-error: the typed client knows its endpoints (the types are real, not any)
void api.noSuchEndpoint;
const indexer = createIndexer({ source: createRpcChainSource('http://127.0.0.1:8545'), sink: store });
const server = createServer({ chains: { '1': store } });
const middleware = explorerMiddleware(explorer, { prefix: '/explorer' });
const open: (url: string) => Promise<SqlStore> = openSqlStore;
export { chain, status, text, indexer, server, middleware, open };
`,
  );
  // a strict Node project that also checks the package's declaration files
  const base = { strict: true, noEmit: true, target: 'es2022', lib: ['es2023'], skipLibCheck: false, types: ['node'] };
  const configs = {
    node16: { ...base, module: 'node16', moduleResolution: 'node16' },
    bundler: { ...base, module: 'esnext', moduleResolution: 'bundler' },
  };
  for (const [name, compilerOptions] of Object.entries(configs)) {
    const file = `tsconfig.${name}.json`;
    await writeFile(join(project, file), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }, null, 2));
    const result = await run(repoBin('tsc'), ['-p', file], project).then(
      (r) => ({ ok: true, output: r.stdout }),
      (e: unknown) => ({ ok: false, output: e instanceof Error ? e.message : String(e) }),
    );
    t.ok(result.ok, `tsc, moduleResolution ${name}${result.ok ? '' : `:\n${result.output}`}`);
  }
});

t.test("the README's TypeScript snippets type-check against the installed package", async (t) => {
  const readme = await readFile(join(project, 'node_modules', 'scoutkit', 'README.md'), 'utf8');
  const snippets = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
  t.ok(snippets.length >= 4, `${snippets.length} snippets (library, middleware, server, indexer)`);
  const dir = join(project, 'readme-snippets');
  await mkdir(dir, { recursive: true });
  const files = await Promise.all(
    snippets.map(async (code, i) => {
      await writeFile(join(dir, `snippet${i + 1}.ts`), code);
      return `snippet${i + 1}.ts`;
    }),
  );
  const compilerOptions = { strict: true, noEmit: true, target: 'es2022', lib: ['es2023'], module: 'node16', moduleResolution: 'node16', skipLibCheck: true, types: ['node'] };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }, null, 2));
  const result = await run(repoBin('tsc'), ['-p', 'tsconfig.json'], dir).then(
    () => ({ ok: true, output: '' }),
    (e: unknown) => ({ ok: false, output: e instanceof Error ? e.message : String(e) }),
  );
  t.ok(result.ok, `tsc over ${files.join(', ')}${result.ok ? '' : `:\n${result.output}`}`);
});

t.test('npx scoutkit --help', async (t) => {
  const { stdout } = await run('npx', ['--no', '--', 'scoutkit', '--help'], project);
  for (const command of ['serve', 'index', 'demo', 'seed', 'migrate']) t.match(stdout, new RegExp(`^  ${command} `, 'm'));
});

t.test('scoutkit serve --db memory:fixture answers over HTTP (and a seeded SQLite chain)', async (t) => {
  const { stdout: seeded } = await run(join(project, 'node_modules', '.bin', 'scoutkit'), ['seed', '--db', 'sqlite:./seeded.sqlite'], project);
  t.match(seeded, new RegExp(`head ${HEAD_BLOCK}`), 'scoutkit seed into SQLite');
  const served = await startServe(project, ['--db', 'memory:fixture', '--chain', '5=sqlite:./seeded.sqlite', '--open-multichain', '--port', '0']);
  t.teardown(() => served.stop());
  const res = await fetch(`${served.url}/api/v2/blocks/${HEAD_BLOCK}`);
  const firstAnswerMs = performance.now() - served.started;
  t.equal(res.status, 200);
  const block = (await res.json()) as { height: number; hash: string };
  t.equal(block.height, HEAD_BLOCK, 'the fixture chain head, from memory');
  const fromSqlite = await fetch(`${served.url}/5/api/v2/blocks/${HEAD_BLOCK}`);
  t.equal(fromSqlite.status, 200);
  t.match(await fromSqlite.json(), { height: HEAD_BLOCK, hash: block.hash }, 'the same block, from SQLite');
  t.comment(`serve: listening after ${served.listeningMs.toFixed(0)} ms, first answer after ${firstAnswerMs.toFixed(0)} ms`);
  t.equal(await served.stop(), 0, 'a clean exit on SIGTERM');
  t.match(served.lines.at(-1), { msg: 'stopped' });
});

t.test('scoutkit serve under Node 22 and 24', async (t) => {
  for (const node of nodes.slice(1)) {
    const served = await startServe(project, ['--db', 'memory:fixture', '--port', '0'], node.path);
    const res = await fetch(`${served.url}/api/v2/blocks/${HEAD_BLOCK}`);
    t.equal(res.status, 200, `${node.version}: GET /api/v2/blocks/${HEAD_BLOCK}`);
    t.match(await res.json(), { height: HEAD_BLOCK });
    t.equal(await served.stop(), 0, `${node.version}: a clean exit on SIGTERM`);
  }
  if (nodes.length === 1) t.pass('no other Node version off CI (see the loud line)');
});
