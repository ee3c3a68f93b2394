// A fast slice of the suite under the Node versions users run (22 and 24, besides the suite's
// own node): the core (routes, the typed client, exact JSON), the host (server, the examples)
// and the SQL store on SQLite (sqlite3's native binding). Each file runs as a plain node
// process of that version with the tsx loader, as tap runs it; the package itself (pack,
// install, import, serve) is checked under the same versions by install.test.ts.
import { spawn } from 'node:child_process';
import t from 'tap';
import { cleanEnv, repoRoot } from '../support/package.ts';
import { otherNodes } from '../support/nodes.ts';

const SLICE = [
  'test/lib/endpoints.test.ts',
  'test/lib/client.test.ts',
  'test/lib/json.test.ts',
  'test/host/server.test.ts',
  'test/host/examples.test.ts',
  'test/adapters/sql/preparedReads.test.ts',
];

interface Ran {
  readonly code: number | null;
  readonly output: string;
  readonly ms: number;
}

function runTestFile(node: string, file: string): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['--import=tsx', file], {
      cwd: repoRoot,
      // a file run by plain node gets tap's 30 s whole-file timeout unless told otherwise: on a
      // loaded machine server.test.ts took 30.1 s and failed on it; tap's runner gives 300 s
      env: cleanEnv({ SCOUTKIT_STORES: 'memory,sqlite', TAP_TIMEOUT: '300' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output, ms: performance.now() - started }));
  });
}

const nodes = await otherNodes();
if (nodes.length === 0) t.pass('no other Node version available off CI (see the loud line)');

for (const node of nodes) {
  t.test(`Node ${node.version}`, async (t) => {
    for (const file of SLICE) {
      const ran = await runTestFile(node.path, file);
      // a tap file run alone ends with `# { total: N, pass: N }` (and fail/todo/skip counts)
      const summary = /^# (\{ total: \d+.*\})$/m.exec(ran.output)?.[1] ?? 'no summary';
      t.equal(ran.code, 0, `${file}: ${summary}, ${(ran.ms / 1000).toFixed(1)} s`, ran.code === 0 ? {} : { output: ran.output.slice(-4000) });
      t.match(summary, /pass: [1-9]/, `${file}: its tests ran`);
    }
  });
}
