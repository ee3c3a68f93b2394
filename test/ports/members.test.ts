/**
 * The port suite covers every member of every port: each member of DataSource, DataSink,
 * ContractStore, ChangeFeed and StoreLease (lib/ports/, inherited members included) is called
 * by name (`.member`) in a file of test/ports/, so a new member without a port test fails here.
 * The few proven elsewhere are listed below with the file that proves them (that file must name
 * them); ChainSource, the node-facing port, is driven by the indexer's tests against Anvil nodes
 * (test/indexer/), through lib/indexer, so its members are pinned by name: a new one fails until
 * it is added to the list with its test.
 *
 * And a DataSource member called from one shipped file only (lib/, adapters/, host/, bin/, read
 * as text) is optional: a capability a store may lack (OptionalQuery), not a required query.
 *
 * `node --import=tsx scripts/port-members.ts` lists the members with their callers in the code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import ts from 'typescript';
import { PORTS } from '../../scripts/port-members.ts';
import type { PortName } from '../../scripts/port-members.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** interfaces declared in lib/ports/: their own members and the interfaces they extend */
function interfaces(): Map<string, { readonly members: readonly string[]; readonly optional: readonly string[]; readonly extends: readonly string[] }> {
  const out = new Map<string, { members: string[]; optional: string[]; extends: string[] }>();
  for (const file of readdirSync(join(root, 'lib/ports')).filter((f) => f.endsWith('.ts'))) {
    const source = ts.createSourceFile(file, readFileSync(join(root, 'lib/ports', file), 'utf8'), ts.ScriptTarget.Latest, false);
    for (const s of source.statements) {
      if (!ts.isInterfaceDeclaration(s)) continue;
      out.set(s.name.text, {
        members: s.members.flatMap((m) => (m.name !== undefined && ts.isIdentifier(m.name) ? [m.name.text] : [])),
        optional: s.members.flatMap((m) => (m.name !== undefined && ts.isIdentifier(m.name) && m.questionToken !== undefined ? [m.name.text] : [])),
        extends: (s.heritageClauses ?? []).flatMap((h) => h.types.map((x) => x.expression.getText(source))),
      });
    }
  }
  return out;
}

function optionalOf(name: string, all: ReturnType<typeof interfaces>): string[] {
  const i = all.get(name);
  if (i === undefined) throw new Error(`lib/ports/ declares no interface ${name}`);
  return [...i.extends.flatMap((e) => optionalOf(e, all)), ...i.optional];
}

function membersOf(name: string, all: ReturnType<typeof interfaces>): string[] {
  const i = all.get(name);
  if (i === undefined) throw new Error(`lib/ports/ declares no interface ${name}`);
  return [...i.extends.flatMap((e) => membersOf(e, all)), ...i.members];
}

/** members the port suite does not call, each with the test that proves it */
const ELSEWHERE: Readonly<Record<string, string>> = {
  // a store opened on Postgres streaming replicas: the replica set's own tests
  'DataSource.replicas': 'test/adapters/sql/replicaSet.test.ts',
};

/** ChainSource's members, proven by the indexer's tests against Anvil (test/indexer/) */
const CHAIN_SOURCE = [
  'chainId',
  'headerByHash',
  'blockHash',
  'headNumber',
  'capabilities',
  'getBlock',
  'getReceipts',
  'traceCalls',
  'tracePrestate',
  'readTokens',
  'getCode',
  'getBalance',
  'getStorageAt',
  'fetchMetadata',
  'pendingPoolMethod',
  'readPendingPool',
];

const all = interfaces();
const suite = readdirSync(join(root, 'test/ports'))
  .filter((f) => f.endsWith('.ts') && f !== 'members.test.ts')
  .map((f) => readFileSync(join(root, 'test/ports', f), 'utf8'))
  .join('\n');
const called = (name: string, text: string): boolean => new RegExp(`\\.${name}\\b`).test(text);

t.test('every port is read', async (t) => {
  const counts = Object.fromEntries((Object.keys(PORTS) as PortName[]).map((p) => [p, membersOf(p, all).length]));
  t.ok(counts.DataSource >= 40, `DataSource: ${counts.DataSource} members`);
  t.ok(Object.values(counts).every((n) => n > 0), JSON.stringify(counts));
});

for (const port of (Object.keys(PORTS) as PortName[]).filter((p) => p !== 'ChainSource')) {
  t.test(`the port suite calls every member of ${port}`, async (t) => {
    const members = membersOf(port, all);
    const missing = members.filter((m) => !called(m, suite) && ELSEWHERE[`${port}.${m}`] === undefined);
    t.same(missing, [], `${members.length} members; not called by test/ports/ (add a port test)`);
    for (const m of members) {
      const where = ELSEWHERE[`${port}.${m}`];
      if (where !== undefined) t.ok(new RegExp(`\\b${m}\\b`).test(readFileSync(join(root, where), 'utf8')), `${port}.${m}: ${where}`);
    }
  });
}

t.test('DataSource: a member called from one shipped file is optional', async (t) => {
  const shipped = ['lib', 'adapters', 'host', 'bin'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => readFileSync(join(root, dir, f), 'utf8')),
  );
  const optional = new Set(optionalOf('DataSource', all));
  const single = membersOf('DataSource', all).filter((m) => shipped.filter((text) => called(m, text)).length === 1);
  t.ok(single.length > 0, `${single.length} members called from one file: ${single.join(', ')}`);
  t.same(
    single.filter((m) => !optional.has(m)),
    [],
    'required yet called from one file: fold it into a general query or make it optional (OptionalQuery, with the answer the host gives without it)',
  );
});

t.test('ChainSource: every member is one the indexer tests drive', async (t) => {
  t.same(membersOf('ChainSource', all), CHAIN_SOURCE, 'a new member: test it in test/indexer/ and add it here');
});

t.test('the check sees a missing member', async (t) => {
  t.notOk(called('listBlocksWithoutTest', suite));
  t.ok(called('listBlocks', suite));
});
