/**
 * `scoutkit demo` (what `npm start` runs): anvil + scenario + indexer + API, following new blocks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { exampleUrls, parseDemoArgs, startDemo } from '../../host/commands/demo.ts';

const dir = mkdtempSync(join(tmpdir(), 'scoutkit-demo-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('defaults are the README’s', async (t) => {
  t.same(parseDemoArgs([]), { db: 'sqlite:./scoutkit-demo.sqlite', port: 3000, host: '127.0.0.1', blockTime: 1, rounds: 2 });
  t.throws(() => parseDemoArgs(['--block-time', '0']), /--block-time/);
  t.throws(() => parseDemoArgs(['--block-time', '0.5']), /--block-time/);
});

t.test('the demo indexes the scenario, serves it, and follows new blocks', async (t) => {
  const lines: string[] = [];
  const demo = await startDemo({ db: `sqlite:${join(dir, 'demo.sqlite')}`, port: 0, host: '127.0.0.1', blockTime: 1, rounds: 1, log: (l) => lines.push(l) });
  t.teardown(() => demo.stop());
  t.match(lines.join('\n'), /nothing will be missing/, 'anvil has every capability the indexer wants');
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
