/**
 * Test files by folder, for test:quick's and npm test's lists (groups.ts, scripts/test/run.ts).
 * Imports no tap: npm test's runner reads it, and a process that imports tap becomes a test.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** every `*.test.ts` under a folder of the repository (recursively, node_modules left out), sorted */
export function testsUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(join(ROOT, d), { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (e.name.endsWith('.test.ts')) found.push(p);
    }
  };
  walk(dir);
  return found.sort();
}
