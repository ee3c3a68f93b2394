// The documents (README.md, docs/, bench/RESULTS.md): every relative link names a file of the
// repository, and no link leaves it by a relative path (the npm package ships the same files:
// test/package/install.test.ts checks the links there).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = fileURLToPath(new URL('..', import.meta.url));
const documents = ['README.md', 'bench/RESULTS.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens */
const anchor = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (text: string): Set<string> => new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1] ?? '')));

t.ok(documents.length >= 5, documents.join(', '));
for (const doc of documents) {
  t.test(doc, async (t) => {
    const text = readFileSync(join(root, doc), 'utf8');
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
    for (const link of links) {
      if (/^https?:/.test(link)) continue;
      const [path = '', hash] = link.split('#');
      const target = path === '' ? doc : normalize(join(dirname(doc), path));
      t.notOk(relative(root, join(root, target)).startsWith('..'), `${link}: inside the repository`);
      t.ok(existsSync(join(root, target)), `${link}: ${target} exists`);
      if (hash !== undefined && target.endsWith('.md') && existsSync(join(root, target))) {
        t.ok(anchorsOf(readFileSync(join(root, target), 'utf8')).has(hash), `${link}: a heading of ${target}`);
      }
    }
    t.notMatch(text, /\.\.\/shared\//, 'no path into ../shared');
  });
}

t.test('the README stays short', async (t) => {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
  t.ok(lines <= 260, `${lines} lines`);
});
