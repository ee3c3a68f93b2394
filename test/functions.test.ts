// No function over 150 lines in the code that ships (lib/, adapters/, host/, bin/), migrations
// aside: every function-like node — declarations, expressions, arrows, methods, accessors,
// constructors — measured over its whole node, end line − start line + 1.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const MAX_LINES = 150;
const DIRS = ['lib', 'adapters', 'host', 'bin'];

const posix = (path: string): string => path.split(sep).join('/');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => posix(relative(root, join(e.parentPath, e.name))))
    .filter((file) => !file.split('/').includes('migrations'))
    .sort();
}

/** the name a reader would look for: the declared name, or the variable, property or method it is assigned to */
function nameOf(node: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.initializer === node) {
    return parent.name.getText(sf);
  }
  return '(anonymous)';
}

interface Long {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

function longFunctions(file: string): Long[] {
  const sf = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Long[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const fn = node as ts.FunctionLikeDeclaration;
      const start = sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(fn.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_LINES) found.push({ file, line: start + 1, name: nameOf(fn, sf), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

t.test(`no function over ${MAX_LINES} lines outside migrations`, async (t) => {
  const files = DIRS.flatMap(sourceFiles);
  t.ok(files.length > 100, `${files.length} source files measured`);
  const long = files.flatMap(longFunctions).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
  t.same(long, [], long.length === 0 ? 'none' : `over ${MAX_LINES} lines:\n${long.join('\n')}`);
});
