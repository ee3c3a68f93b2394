/**
 * The node arguments that start the `scoutkit` command in a child process: the build,
 * `dist/bin/scoutkit.js`, when dist/ is current (npm test builds it before any test runs: a
 * child then loads compiled JavaScript, about 1.5 s of CPU less a start than tsx loading the
 * sources), else `bin/scoutkit.ts` through tsx (a file run alone after an edit, or without a
 * build). Spawn `process.execPath` with these, then the command's own arguments.
 */
import { join } from 'node:path';
import { distIsCurrent, repoRoot } from './package.ts';

let built: boolean | undefined;

export function scoutkitBin(): string[] {
  built ??= distIsCurrent();
  return built ? [join(repoRoot, 'dist', 'bin', 'scoutkit.js')] : ['--import', 'tsx', join(repoRoot, 'bin', 'scoutkit.ts')];
}
