/**
 * `scoutkit serve --db <url>` serves a store under the chain id it records (the indexer writes
 * it): `eth_chainId`, `/{chain_id}/api/v2`, `/api/json/config` and the transactions' `chainId`
 * follow; `--default-chain` only names a store that records none, and contradicting the
 * recorded id is an error at start; a store that records none says so in a start-up line.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import t from 'tap';
import type { Test } from 'tap';
import { main } from '../../host/cli.ts';
import { openStore } from '../../host/index.ts';
import { servedChainId, unrecordedNote, UNRECORDED_CHAIN_ID } from '../../host/servedChain.ts';
import { loadFixtureChain } from '../../fixture/index.ts';
import { request } from './helpers.ts';
import { scoutkitBin } from '../support/scoutkitBin.ts';

const dir = await mkdtemp(join(tmpdir(), 'scoutkit-chain-id-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

/** A SQLite store holding the fixture chain, recorded as anvil's chain 31337 (as the indexer records it). */
const db = `sqlite:${join(dir, 'anvil.sqlite')}`;
const filled = await openStore(db);
const { bundles } = await loadFixtureChain(filled.sink);
const genesis = bundles[0]?.block.hash;
if (genesis === undefined) throw new Error('the fixture has block 0');
await filled.sink.setChainIdentity({ chainId: 31337, genesisHash: genesis });
await filled.close();
const typed = bundles.flatMap((b) => b.transactions).find((tx) => tx.type !== null && tx.type > 0);
if (typed === undefined) throw new Error('the fixture has a typed transaction');

/** `scoutkit serve` in a child process: its start-up lines, its URL, and a stop. */
async function serve(t: Test, args: readonly string[]): Promise<{ url: string; lines: Record<string, unknown>[] }> {
  const child = spawn(process.execPath, [...scoutkitBin(), 'serve', ...args, '--port', '0', '--no-docs', '--no-metrics', '--log-format', 'json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      lines.push(parsed);
      if (parsed.msg === 'listening') resolve(String(parsed.url));
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${stderr}`)));
  });
  t.teardown(async () => {
    child.kill('SIGTERM');
    await once(child, 'exit');
  });
  return { url, lines };
}

const rpc = async (url: string, method: string, params: readonly unknown[] = []) =>
  (await request(`${url}/api/eth-rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json as {
    result?: unknown;
  };

t.test('serve --db: the chain id the store records, everywhere', async (t) => {
  const { url, lines } = await serve(t, ['--db', db, '--open-multichain']);
  t.match(lines.at(-1), { msg: 'listening', defaultChain: '31337' }, 'logged as chain 31337');
  t.notOk(lines.some((l) => /records no chain id|is empty/.test(String(l.msg))), 'no note: the store records its id');
  t.equal((await rpc(url, 'eth_chainId')).result, '0x7a69', 'eth_chainId');
  t.equal((await request(`${url}/31337/api/v2/blocks`)).status, 200, '/31337/api/v2/blocks');
  t.equal((await request(`${url}/1/api/v2/blocks`)).status, 404, 'not chain 1');
  t.same(Object.keys(((await request(`${url}/api/json/config`)).json as { chains: Record<string, string> }).chains), ['31337'], '/api/json/config lists 31337');
  const tx = (await rpc(url, 'eth_getTransactionByHash', [typed.hash])).result as { chainId?: string; type?: string };
  t.same([tx.type, tx.chainId], [`0x${(typed.type ?? 0).toString(16)}`, '0x7a69'], 'a typed transaction: chainId 31337');
});

t.test('--default-chain: agrees, or is an error at start', async (t) => {
  const errors: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => (errors.push(String(chunk)), true)) as typeof process.stderr.write;
  let code: number;
  try {
    code = await main(['serve', '--db', db, '--default-chain', '5', '--port', '0']);
  } finally {
    process.stderr.write = write;
  }
  t.equal(code, 1, 'exit code 1');
  t.match(errors.join(''), /--default-chain says chain 5, but the store sqlite:.* holds chain 31337 \(recorded by the indexer\): drop --default-chain/, errors.join(''));

  const store = await openStore(db);
  t.teardown(() => store.close());
  t.same(await servedChainId(store, '31337', '--default-chain'), { id: '31337', recorded: true, empty: false }, 'agreeing: fine');
  await t.rejects(servedChainId(store, '7', '--chain 7=…'), /--chain 7=… says chain 7, but the store .* holds chain 31337/, 'a --chain store too');

  const empty = await openStore('memory:');
  t.same(await servedChainId(empty, undefined, '--default-chain'), { id: UNRECORDED_CHAIN_ID, recorded: false, empty: true }, 'an empty store: chain 1');
  t.same(await servedChainId(empty, '10', '--default-chain'), { id: '10', recorded: false, empty: true }, 'or the given id');
  t.match(unrecordedNote({ id: '1', recorded: false, empty: true }, undefined), /the store is empty .*serving it as chain 1 \(--default-chain to choose another\)/);
  t.match(unrecordedNote({ id: '1', recorded: false, empty: false }, '1'), /records no chain id/);
  t.equal(unrecordedNote({ id: '5', recorded: true, empty: false }, undefined), undefined);
});

t.test('serve on an empty store says so, and serves it as chain 1', async (t) => {
  const { url, lines } = await serve(t, ['--db', 'memory:']);
  const note = lines.find((l) => /the store is empty/.test(String(l.msg)));
  t.ok(note, `a start-up line: ${String(note?.msg)}`);
  t.match(note, { store: 'memory', chain: '1' });
  t.match(lines.at(-1), { msg: 'listening', defaultChain: '1' });
  t.equal((await rpc(url, 'eth_chainId')).result, '0x1');
});
