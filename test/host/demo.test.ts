/**
 * `scoutkit demo` (what `npm start` runs): anvil + scenario + indexer + API, following new blocks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { exampleUrls, parseDemoArgs, startDemo } from '../../host/commands/demo.ts';
import { assertPortFree, PortInUseError } from '../../host/portFree.ts';

const dir = mkdtempSync(join(tmpdir(), 'scoutkit-demo-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('defaults are the README’s', async (t) => {
  t.same(parseDemoArgs([]), { db: 'sqlite:./scoutkit-demo.sqlite', port: 3000, host: '127.0.0.1', blockTime: 1, rounds: 2 });
  t.throws(() => parseDemoArgs(['--block-time', '0']), /--block-time/);
  t.throws(() => parseDemoArgs(['--block-time', '0.5']), /--block-time/);
});

t.test('a port in use: said at once, before any setup, naming --port', async (t) => {
  const holder = createTcpServer().listen(0, '127.0.0.1');
  await once(holder, 'listening');
  t.teardown(() => new Promise<void>((resolve) => holder.close(() => resolve())));
  const { port } = holder.address() as AddressInfo;
  const lines: string[] = [];
  const started = performance.now();
  const err = await startDemo({ db: `sqlite:${join(dir, 'never.sqlite')}`, port, host: '127.0.0.1', blockTime: 1, rounds: 1, log: (l) => lines.push(l) }).catch((e: unknown) => e);
  t.type(err, PortInUseError);
  t.match((err as Error).message, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use: .*--port <n>`));
  t.comment(`refused after ${(performance.now() - started).toFixed(0)} ms`); // before any setup: the empty log below proves it
  t.same(lines, [], 'no anvil started, nothing deployed');
  await t.resolves(assertPortFree(0, '127.0.0.1'), 'port 0 is always free');
});

t.test('the demo indexes the scenario, serves it, and follows new blocks', async (t) => {
  const lines: string[] = [];
  const demo = await startDemo({ db: `sqlite:${join(dir, 'demo.sqlite')}`, port: 0, host: '127.0.0.1', blockTime: 1, rounds: 1, log: (l) => lines.push(l) });
  t.teardown(() => demo.stop());
  t.match(lines.join('\n'), /nothing will be missing/, 'anvil has every capability the indexer wants');
  t.notOk(lines.some((l) => l.startsWith('reset:')), 'a fresh store: no reset line');
  for (const url of exampleUrls(demo.url, demo.facts)) {
    const res = await fetch(url);
    t.equal(res.status, 200, url);
  }
  t.equal(demo.docsUrl, `${demo.url}/`, 'the API docs page is at /');
  t.match(await (await fetch(`${demo.url}/`)).text(), /<div id="swagger-ui">/);
  const metrics = await (await fetch(demo.metricsUrl ?? `${demo.url}/nothing`)).text();
  const indexed = /^scoutkit_indexer_head_block\{chain="(\d+)"\} (\d+)$/m.exec(metrics);
  t.equal(indexed?.[1], String(demo.facts.chainId), 'metrics: the indexer feeds them');
  t.ok(Number(indexed?.[2]) >= Number(demo.facts.blockNumber), `metrics: indexed head ${indexed?.[2]}`);
  // the demo verifies its own contracts from its precompiled artifacts, as they are indexed
  const c = demo.facts.contracts;
  const names = { token: 'DemoToken', nft: 'DemoNFT', multi: 'DemoMulti', router: 'Router', reverter: 'Reverter', factory: 'TokenFactory', createdToken: 'DemoToken', created2Token: 'DemoToken' } as const;
  for (const [key, name] of Object.entries(names)) {
    const address = c[key as keyof typeof names];
    const sc = (await (await fetch(`${demo.url}/api/v2/smart-contracts/${address}`)).json()) as Record<string, unknown>;
    t.match(sc, { is_verified: true, name, language: 'solidity', optimization_enabled: true, optimization_runs: 200, evm_version: 'cancun' }, `${key}: verified as ${name}`);
    t.ok(Array.isArray(sc['abi']) && (sc['abi'] as unknown[]).length > 0, `${key}: its ABI`);
    t.match(String(sc['source_code']), new RegExp(`contract ${name}\\b`), `${key}: its source`);
  }
  const multi = (await (await fetch(`${demo.url}/api/v2/smart-contracts/${c.multi}`)).json()) as Record<string, unknown>;
  t.same((multi['additional_sources'] as { file_path: string }[]).map((s) => s.file_path), ['Strings.sol'], 'DemoMulti: the file it imports');
  t.ok(demo.verification.verified >= 8, `${demo.verification.verified} contracts verified`);
  const times = lines.flatMap((l) => /^verified 0x[0-9a-f]{40} as .* in ([\d.]+) ms$/.exec(l)?.[1] ?? []).map(Number);
  t.ok(times.length >= 8, 'a line per contract, with its time');
  t.comment(`demo contracts verified from artifacts (ms): ${times.map((x) => x.toFixed(2)).join(', ')}`);
  const tx = (await (await fetch(`${demo.url}/api/v2/transactions/${demo.facts.txs.reverted}`)).json()) as Record<string, unknown>;
  t.equal(tx['status'], 'error', 'the reverted transaction');
  const headAt = async () => ((await (await fetch(`${demo.url}/api/v2/blocks?items_count=1`)).json()) as { items: { height: number }[] }).items[0]?.height ?? -1;
  const first = await headAt();
  t.ok(first >= Number(demo.facts.blockNumber), 'the scenario is indexed');
  let later = first;
  for (let i = 0; i < 60 && later <= first; i++) {
    await new Promise((r) => setTimeout(r, 250));
    later = await headAt();
  }
  t.ok(later > first, `new blocks are followed (${first} → ${later})`);
});
