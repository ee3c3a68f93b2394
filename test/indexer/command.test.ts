/**
 * `scoutkit index` end to end into SQLite, the progress renderer, NFT metadata fetching and the
 * RPC error classification.
 */
import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { parseIndexArgs, runIndexCommand } from '../../host/commands/index.ts';
import { createProgressRenderer, progressLine } from '../../host/progress.ts';
import { classify, createMetadataFetcher, FinalRpcError, RetryableRpcError, resolveUri, withRetry } from '../../adapters/rpc/index.ts';
import { openSqlStore } from '../../adapters/sql/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { hash } from '../../lib/index.ts';
import { sendMined } from './helpers.ts';

t.test('scoutkit index into SQLite: indexes, resumes, refuses bad arguments', async (t) => {
  const anvil = await startAnvil();
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-index-'));
  t.teardown(async () => {
    await anvil.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  for (let i = 0; i < 3; i++) {
    await sendMined(anvil.url, BigInt(i + 1));
  }
  const db = `sqlite:${join(dir, 'chain.sqlite')}`;
  const out: string[] = [];
  const io = { stdout: { write: (s: string) => void out.push(s), isTTY: false }, stderr: { write: (s: string) => void out.push(s) } };
  t.equal(await runIndexCommand(['--rpc', anvil.url, '--db', db], io), 0);
  const text = out.join('');
  t.match(text, /indexing chain 31337 from block 0/);
  t.equal(text.match(/tracing: block — /g)?.length, 1, 'the tracing rung said once');
  t.equal(text.match(/nothing will be missing/g)?.length, 1, 'the capabilities said once');
  t.match(text, /indexed 4 block\(s\), 3 transaction\(s\); store head 3/);

  out.length = 0;
  t.equal(await runIndexCommand(['--rpc', anvil.url, '--db', db], io), 0);
  t.match(out.join(''), /indexed 0 block\(s\).*store head 3/s, 'a second run resumes at the head');

  const store = await openSqlStore(db);
  t.equal(await store.getHighestBlockNumber(), 3);
  await store.close();

  t.throws(() => parseIndexArgs(['--db', db]), /--rpc/);
  t.throws(() => parseIndexArgs(['--rpc', anvil.url]), /--db/);
  t.throws(() => parseIndexArgs(['--rpc', anvil.url, '--db', db, '--from', 'x']), /--from/);
  t.throws(() => parseIndexArgs(['--rpc', anvil.url, '--db', db, '--from', '5', '--to', '2']), /below/);
  t.throws(() => parseIndexArgs(['--rpc', anvil.url, '--db', db, '--trace-mode', 'opcodes']), /--trace-mode: expected one of block, transaction, parity, structlog, none, got "opcodes"/);
  t.equal(parseIndexArgs(['--rpc', anvil.url, '--db', db, '--trace-mode', 'parity']).traceMode, 'parity');
  t.same(parseIndexArgs(['--rpc', anvil.url, '--db', db, '--from', '5', '--follow']), { rpc: anvil.url, db, from: 5, follow: true, reset: false });
});

t.test('progress: a bar on a TTY, throttled plain lines otherwise', async (t) => {
  const e = {
    type: 'progress' as const,
    indexedHead: 50,
    targetHead: 100,
    nodeHead: 104,
    blocks: 50,
    transactions: 500,
    blocksPerSecond: 25,
    transactionsPerSecond: 250,
    etaSeconds: 2,
    headLag: 54,
    elapsedMs: 2000,
  };
  t.equal(progressLine(e), 'block 50/100 · 25.0 blocks/s · 250 tx/s · ETA 2s · head lag 54');
  let clock = 0;
  const plain: string[] = [];
  const r = createProgressRenderer({ write: (s) => void plain.push(s), isTTY: false }, { now: () => clock });
  r({ type: 'start', chainId: 1, genesisHash: hash('0x00'), from: 0, nodeHead: 104, capabilities: { traces: false, prestate: true, blockReceipts: true }, missing: ['no call traces'] });
  clock = 10_000;
  r(e);
  clock = 10_001;
  r({ ...e, indexedHead: 51 }); // throttled
  r({ ...e, indexedHead: 100 }); // the last one always shows
  t.same(plain, [
    'indexing chain 1 from block 0 (node head 104)\n',
    `${progressLine(e)}\n`,
    `${progressLine({ ...e, indexedHead: 100 })}\n`,
  ]);
  const tty: string[] = [];
  const bar = createProgressRenderer({ write: (s) => void tty.push(s), isTTY: true, columns: 120 }, { now: () => clock });
  bar(e);
  bar.finish();
  t.match(tty[0], /^\r\x1b\[2K\[#+-+\]\s+50\.5% block 50\/100/);
  t.equal(tty[1], '\n');
});

t.test('NFT metadata: data:, http(s) with timeout and size cap, ipfs:// through the gateway; failures are null', async (t) => {
  const server = createServer((req, res) => {
    if (req.url === '/ok.json') return void res.end('{"name":"ok","image":"ipfs://Qm/x.png"}');
    if (req.url === '/ipfs/QmCid/1.json') return void res.end('{"name":"via gateway"}');
    if (req.url === '/big.json') return void res.end(`{"pad":"${'x'.repeat(5000)}"}`);
    if (req.url === '/slow.json') return void setTimeout(() => res.end('{}'), 1000);
    if (req.url === '/array.json') return void res.end('[1,2]');
    res.statusCode = 404;
    res.end('nope');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fetchMeta = createMetadataFetcher({ ipfsGateway: `${base}/ipfs/`, timeoutMs: 200, maxBytes: 1000 });

  const json = '{"name":"Scout #1","attributes":[]}';
  t.same(await fetchMeta(`data:application/json;base64,${Buffer.from(json).toString('base64')}`), { name: 'Scout #1', attributes: [] });
  t.same(await fetchMeta(`data:application/json,${encodeURIComponent(json)}`), { name: 'Scout #1', attributes: [] });
  t.same(await fetchMeta(`data:application/json;utf8,${json}`), { name: 'Scout #1', attributes: [] });
  t.same(await fetchMeta(`${base}/ok.json`), { name: 'ok', image: 'ipfs://Qm/x.png' });
  t.same(await fetchMeta('ipfs://QmCid/1.json'), { name: 'via gateway' });
  t.same(await fetchMeta('ipfs://ipfs/QmCid/1.json'), { name: 'via gateway' });
  t.equal(await fetchMeta(`${base}/big.json`), null, 'over the size cap');
  t.equal(await fetchMeta(`${base}/slow.json`), null, 'past the timeout');
  t.equal(await fetchMeta(`${base}/missing.json`), null, '404');
  t.equal(await fetchMeta(`${base}/array.json`), null, 'not an object');
  t.equal(await fetchMeta('data:application/json;base64,!!!'), null, 'garbage');
  t.equal(await fetchMeta('ftp://example.org/x'), null, 'unsupported scheme');
  t.equal(await fetchMeta('http://127.0.0.1:1/unreachable'), null, 'unreachable');
  t.equal(resolveUri('ar://abc'), 'https://arweave.net/abc');
  t.equal(resolveUri('ipfs://Qm/a', 'https://gw.example/ipfs'), 'https://gw.example/ipfs/Qm/a');
});

t.test('RPC errors: retryable vs final, with backoff', async (t) => {
  const http500 = new HttpRequestError({ url: 'http://x', status: 503 });
  const http400 = new HttpRequestError({ url: 'http://x', status: 400 });
  const revert = new RpcRequestError({ url: 'http://x', body: {}, error: { code: 3, message: 'execution reverted' } });
  const limited = new RpcRequestError({ url: 'http://x', body: {}, error: { code: -32005, message: 'limit exceeded' } });
  const unknownMethod = new RpcRequestError({ url: 'http://x', body: {}, error: { code: -32601, message: 'method not found' } });
  t.type(classify(http500), RetryableRpcError);
  t.type(classify(http400), FinalRpcError);
  t.type(classify(new TimeoutError({ body: {}, url: 'http://x' })), RetryableRpcError);
  t.type(classify(new TypeError('fetch failed')), RetryableRpcError);
  t.type(classify(revert), FinalRpcError);
  t.type(classify(limited), RetryableRpcError);
  t.type(classify(unknownMethod), FinalRpcError);

  let calls = 0;
  const value = await withRetry('flaky', async () => {
    if (++calls < 3) throw http500;
    return 42;
  }, { retries: 5, baseDelayMs: 1, maxDelayMs: 4 });
  t.equal(value, 42);
  t.equal(calls, 3, 'retried twice');

  calls = 0;
  await t.rejects(withRetry('final', async () => {
    calls++;
    throw revert;
  }, { retries: 5, baseDelayMs: 1, maxDelayMs: 4 }), FinalRpcError);
  t.equal(calls, 1, 'a final error is not retried');

  calls = 0;
  await t.rejects(withRetry('down', async () => {
    calls++;
    throw http500;
  }, { retries: 2, baseDelayMs: 1, maxDelayMs: 4 }), /gave up after 3 attempts/);
  t.equal(calls, 3);
});
