// distIsCurrent: the install test packs the dist/ npm test built unless a build input changed after it
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { distIsCurrent } from './package.ts';

/** a file at `path` under `root`, changed at `seconds` (unix) */
function fileAt(root: string, path: string, seconds: number): void {
  const file = join(root, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, path);
  utimesSync(file, seconds, seconds);
}

t.test('no dist/: not current', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'scoutkit-dist-'));
  fileAt(root, 'lib/a.ts', 1000);
  t.equal(distIsCurrent(root), false);
});

t.test('dist/ built after every input: current', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'scoutkit-dist-'));
  fileAt(root, 'lib/a.ts', 1000);
  fileAt(root, 'host/deep/b.ts', 1500);
  fileAt(root, 'package.json', 900);
  fileAt(root, 'dist/lib/a.js', 2000);
  fileAt(root, 'dist/host/deep/b.js', 2100);
  t.equal(distIsCurrent(root), true, 'inputs that are absent (adapters/, bin/ …) do not count');
});

t.test('an input changed after the oldest built file: not current', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'scoutkit-dist-'));
  fileAt(root, 'dist/lib/a.js', 2000);
  fileAt(root, 'dist/lib/b.js', 3000);
  fileAt(root, 'lib/a.ts', 2500);
  t.equal(distIsCurrent(root), false, 'a file deep in lib/, newer than dist/lib/a.js');
  fileAt(root, 'lib/a.ts', 1000);
  fileAt(root, 'tsconfig.json', 2001);
  t.equal(distIsCurrent(root), false, 'a config file counts too');
  fileAt(root, 'tsconfig.json', 1999);
  t.equal(distIsCurrent(root), true);
});
