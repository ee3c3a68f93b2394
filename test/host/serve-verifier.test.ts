/**
 * `scoutkit serve --compilers <dir>` with an empty directory and no network
 * ($SCOUTKIT_SOLC_BINARIES refusing): the served chain verifies (its verification config lists
 * npm's solc version, at hand, and the methods), the start-up log says where its compilers are;
 * `--compilers` is parsed.
 */
import { rm } from 'node:fs/promises';
import t from 'tap';
import { parseServeArgs } from '../../host/cli.ts';
import { compilerVersion, emptyCompilerDir, REFUSING_URL } from '../support/verification.ts';
import { startScoutkit } from './child.ts';
import { request } from './helpers.ts';

t.test('--compilers is parsed', async (t) => {
  t.equal(parseServeArgs(['--db', 'memory:', '--compilers', '/opt/solc']).compilers, '/opt/solc');
  t.equal(parseServeArgs(['--db', 'memory:']).compilers, undefined, 'default: the user cache (decided at start)');
});

t.test('serve gives its chain a verifier', async (t) => {
  const dir = await emptyCompilerDir();
  // the child inherits the environment: its downloads refused
  const before = process.env['SCOUTKIT_SOLC_BINARIES'];
  process.env['SCOUTKIT_SOLC_BINARIES'] = REFUSING_URL;
  const child = startScoutkit(['serve', '--db', 'memory:fixture', '--port', '0', '--compilers', dir]);
  if (before === undefined) delete process.env['SCOUTKIT_SOLC_BINARIES'];
  else process.env['SCOUTKIT_SOLC_BINARIES'] = before;
  t.teardown(async () => {
    await child.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const note = await child.waitFor((l) => typeof l.msg === 'string' && l.msg.startsWith('contract verification'));
  const short = compilerVersion().replace(/\+.*$/, '');
  t.equal(note.msg, `contract verification on: solc-js in worker threads, compilers in ${dir} and npm's solc (${short}, no download)`, 'the start-up log says so');
  const listening = await child.waitFor((l) => l.msg === 'listening');
  const config = (await request(`${String(listening['url'])}/api/v2/smart-contracts/verification/config`)).json as Record<string, unknown>;
  t.same(config['verification_options'], ['flattened-code', 'standard-input', 'multi-part'], 'the methods');
  t.ok((config['solidity_compiler_versions'] as string[]).some((v) => compilerVersion().startsWith(v)), "npm's solc, at hand in an empty directory");
  const submitted = (await request(`${String(listening['url'])}/api?module=contract&action=checkverifystatus&guid=nope`)).json;
  t.same(submitted, { status: '1', message: 'OK', result: 'Unknown UID' }, 'the dialect answers verification actions');
});
