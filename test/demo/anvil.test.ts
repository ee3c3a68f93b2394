// Finding anvil: npm's platform package (beside scoutkit, in the project, or inside
// @foundry-rs/anvil), then the PATH, then foundryup's home; when it is nowhere, the error says
// how to install it.
import t from 'tap';
import { ANVIL_MISSING, AnvilNotFoundError, findAnvil } from '../../demo/anvil.ts';
import type { AnvilLookup } from '../../demo/anvil.ts';

const arch = process.arch === 'x64' ? 'amd64' : process.arch;
const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
const native = `@foundry-rs/anvil-${process.platform}-${arch}/bin/${exe}`;

const lookup = (over: Partial<AnvilLookup> & { files?: readonly string[] }): AnvilLookup => ({
  resolve: () => undefined,
  exists: (file) => (over.files ?? []).includes(file),
  bases: ['/scoutkit/dist/demo/anvil.js', '/project/package.json'],
  path: '',
  home: '/home/user',
  ...over,
});

t.test('nowhere: an error that says how to install it', async (t) => {
  const error = t.throws(() => findAnvil(lookup({})));
  t.type(error, AnvilNotFoundError);
  t.equal((error as Error).message, ANVIL_MISSING);
  t.match(ANVIL_MISSING, /npm i -D @foundry-rs\/anvil/);
  t.match(ANVIL_MISSING, /foundryup/);
});

t.test('the npm platform package comes first', async (t) => {
  const fromProject = `/project/node_modules/${native}`;
  const resolve = (id: string, base: string): string | undefined => (id === native && base === '/project/package.json' ? fromProject : undefined);
  t.equal(findAnvil(lookup({ resolve, files: [fromProject, '/usr/bin/anvil'], path: '/usr/bin' })), fromProject);
});

t.test('inside @foundry-rs/anvil', async (t) => {
  const nested = `/project/node_modules/@foundry-rs/anvil/node_modules/${native}`;
  const resolve = (id: string, base: string): string | undefined => {
    if (id === '@foundry-rs/anvil/package.json' && base === '/project/package.json') return '/project/node_modules/@foundry-rs/anvil/package.json';
    if (id === native && base === '/project/node_modules/@foundry-rs/anvil/package.json') return nested;
    return undefined;
  };
  t.equal(findAnvil(lookup({ resolve, files: [nested] })), nested);
});

t.test('then the PATH, then ~/.foundry/bin', async (t) => {
  const sep = process.platform === 'win32' ? ';' : ':';
  t.equal(findAnvil(lookup({ path: ['/opt/a', '/opt/b'].join(sep), files: ['/opt/b/' + exe, `/home/user/.foundry/bin/${exe}`] })), `/opt/b/${exe}`);
  t.equal(findAnvil(lookup({ path: '/opt/a', files: [`/home/user/.foundry/bin/${exe}`] })), `/home/user/.foundry/bin/${exe}`);
});

t.test('this machine finds the anvil the clone installs', async (t) => {
  t.match(findAnvil(), new RegExp(`${exe}$`));
});
