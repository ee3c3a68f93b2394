// No test file sets a timeout of its own: each has the one cap against a hang (scripts/quick/cap.ts),
// far above any file's time, whether npm test, test:quick or `npx tap <file>` runs it. A file's own
// shorter cap is a timing in disguise: hardhat-verify's 60 s stopped a sound run beside a CPU hog.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_FILE_CAP_S } from '../../scripts/quick/cap.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? tsFiles(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

t.test('no test sets its own timeout', async (t) => {
  const found = tsFiles(join(ROOT, 'test')).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (/\bt\.setTimeout\(/.test(line) && !line.trimStart().startsWith('//') ? [`${relative(ROOT, file)}:${i + 1}`] : [])),
  );
  t.same(found, [], 'no t.setTimeout in test/');
});

t.test('npx tap <file> has the same cap as npm test and test:quick', async (t) => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { tap: { timeout: number }; scripts: Record<string, string> };
  t.equal(pkg.tap.timeout, DEFAULT_FILE_CAP_S, "package.json's tap timeout");
  t.match(pkg.scripts['test:quick'] ?? '', new RegExp(`--timeout=${DEFAULT_FILE_CAP_S}\\b`), "test:quick's");
});
