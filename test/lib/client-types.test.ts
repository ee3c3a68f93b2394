/**
 * The typed client's types, proved twice: the `@ts-expect-error` lines below must fail to
 * compile (`tsc --noEmit -p .` checks them: an unused one is an error), and the runtime asserts
 * show the typed answers are what the explorer answers — every body read here is validated
 * by its endpoint's response codec, and every `next_page_params` goes back as it came.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as io from 'io-ts';
import t from 'tap';
import type { Test } from 'tap';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { loadFixtureChain } from '../../fixture/index.ts';
import type { Address, ClientAnswer, ClientQuery, EndpointName, NextPageParams, TransactionHash } from '../../lib/index.ts';
import {
  asAddress,
  asBlockHash,
  asTransactionHash,
  createExplorer,
  ENDPOINT_NAMES,
  ENDPOINTS,
  explorerClient,
  isAddress,
  isBlockHash,
  isTransactionHash,
  toJson,
} from '../../lib/index.ts';

const store = createMemoryStore();
const { facts } = await loadFixtureChain(store);
const explorer = createExplorer({ chains: { '1': store } });
const api = explorerClient(explorer);
const hot = asAddress(facts.hotAddress);
const txHash = asTransactionHash(facts.transactions.manyTokenTransfers);

/** The body conforms to the endpoint's response codec: what the typed answer claims. */
function conforms(t: Test, name: EndpointName, body: unknown): void {
  const codec: io.Decoder<unknown, unknown> = ENDPOINTS[name].response;
  t.ok(E.isRight(codec.decode(body)), `${name}: the body is what its response codec describes`);
}

t.test('hash kinds: constructors check the format and lower-case; guards narrow', async (t) => {
  const mixed = `0x${'Ab'.repeat(20)}`;
  const a: Address = asAddress(mixed);
  t.equal(a, mixed.toLowerCase());
  t.throws(() => asAddress('0x1234'), TypeError);
  t.throws(() => asTransactionHash(facts.hotAddress), TypeError, 'an address is not a transaction hash');
  t.equal(asBlockHash(facts.headBlockHash), facts.headBlockHash);
  t.ok(isAddress(facts.hotAddress));
  t.notOk(isAddress(facts.headBlockHash));
  t.ok(isTransactionHash(facts.transactions.legacy));
  t.ok(isBlockHash(facts.headBlockHash));
  t.notOk(isBlockHash(42));
  const s: unknown = facts.transactions.legacy;
  if (isTransactionHash(s)) {
    const h: TransactionHash = s; // narrowed: no cast
    t.equal(h, facts.transactions.legacy);
  }
});

t.test('typed answers: fields read without casts, the same values handle() answers', async (t) => {
  const tx = await api.transaction({ transaction_hash_param: txHash });
  t.equal(tx.ok, true);
  if (!tx.ok) return;
  conforms(t, 'transaction', tx.body);
  t.equal(tx.body.hash, txHash);
  const blockNumber: number | null = tx.body.block_number;
  t.type(blockNumber, 'number');
  t.same(tx, { ok: true, ...(await explorer.handle({ path: `/api/v2/transactions/${txHash}` })) });

  // the answer's hashes are typed by kind: each goes back where its kind belongs, no constructor
  const logs = await api.transactionLogs({ transaction_hash_param: tx.body.hash });
  t.ok(logs.ok && logs.body.items.every((l) => l.transaction_hash === txHash));
  const sender = await api.address({ address_hash_param: tx.body.from.hash });
  t.ok(sender.ok && sender.body.hash.toLowerCase() === tx.body.from.hash.toLowerCase(), 'a checksummed address goes back as it came');
  if (false as boolean) {
    // @ts-expect-error an answer's transaction hash is not an address
    await api.address({ address_hash_param: tx.body.hash });
    // @ts-expect-error nor is its block hash a transaction hash
    await api.transaction({ transaction_hash_param: logs.ok ? logs.body.items[0]!.block_hash : txHash });
  }

  // a block by number (a number, not a string) and by its branded hash
  const head = await api.block({ block_hash_or_number_param: facts.headBlockNumber });
  t.ok(head.ok);
  if (!head.ok) return;
  conforms(t, 'block', head.body);
  t.equal(head.body.height, facts.headBlockNumber);
  const byHash = await api.block({ block_hash_or_number_param: asBlockHash(head.body.hash) });
  t.same(byHash.body, head.body);

  // a number where the codec takes an integer; an enum value checked at compile time
  const blocks = await api.blocks({}, { type: 'block', items_count: 3 });
  t.ok(blocks.ok);
  if (blocks.ok) {
    conforms(t, 'blocks', blocks.body);
    t.equal(blocks.body.items.length, 3);
    t.same(
      blocks.body.items.map((b) => b.height),
      [0, 1, 2].map((i) => facts.headBlockNumber - i),
    );
  }
  const nfts = await api.addressTokens({ address_hash_param: hot }, { type: ['ERC-721', 'ERC-1155'] });
  t.ok(nfts.ok);
  if (nfts.ok) {
    conforms(t, 'addressTokens', nfts.body);
    t.ok(nfts.body.items.length > 0);
    t.ok(nfts.body.items.every((b) => b.token.type === 'ERC-721' || b.token.type === 'ERC-1155'), 'a list is written as the comma list');
  }
});

t.test('failures are the other branch: ok false, an error body', async (t) => {
  const missing = await api.transaction({ transaction_hash_param: asTransactionHash(`0x${'ee'.repeat(32)}`) });
  t.equal(missing.ok, false);
  t.equal(missing.status, 404);
  if (!missing.ok) t.same(missing.body, { message: 'Not found' });
  conforms422(t, await api.blocks({}, { items_count: 0 }));
});

function conforms422(t: Test, r: ClientAnswer<'blocks'>): void {
  t.equal(r.status, 422);
  if (r.ok) return void t.fail('422 expected');
  t.ok('errors' in r.body && r.body.errors[0]?.source.pointer === '/items_count', 'the 422 names the parameter');
}

t.test('next_page_params go back as they came, to the end of the list', async (t) => {
  const path = { address_hash_param: hot };
  const seen: string[] = [];
  let query: ClientQuery<'addressTokens'> = { items_count: 50 };
  for (let pages = 0; pages < 20; pages++) {
    const r = await api.addressTokens(path, query);
    if (!r.ok) return void t.fail(`page ${pages}: ${r.status}`);
    conforms(t, 'addressTokens', r.body);
    seen.push(...r.body.items.map((b) => `${b.token.address_hash}/${b.token_id ?? ''}`));
    if (r.body.next_page_params === null) break;
    query = r.body.next_page_params; // as it came: no cast, no string conversion
  }
  t.ok(seen.length > 100, `several pages followed (${seen.length} balances)`);
  t.equal(new Set(seen).size, seen.length, 'no balance twice');

  // merged with the first call's filters
  const first = await api.addressTokens(path, { type: 'ERC-20', items_count: 5 });
  if (!first.ok || first.body.next_page_params === null) return void t.fail('a second ERC-20 page');
  const next = await api.addressTokens(path, { type: 'ERC-20', ...first.body.next_page_params });
  t.ok(next.ok && next.body.items.every((b) => b.token.type === 'ERC-20'));
});

t.test('every paged endpoint takes its own next_page_params back (exact bigints, nulls and all)', async (t) => {
  // a loose view of the client for the sweep; the typed calls are above
  const loose = api as unknown as Record<string, (path: object, query?: object) => Promise<{ ok: boolean; status: number; body: { next_page_params?: object | null } }>>;
  const pathValues: Record<string, (route: string) => unknown> = {
    address_hash_param: (route) =>
      route.startsWith('/tokens/') ? (route.includes('{token_id_param}') ? facts.tokens.erc721 : facts.tokens.erc20) : route.startsWith('/smart-contracts') ? facts.tokens.erc20 : facts.hotAddress,
    transaction_hash_param: () => facts.transactions.manyTokenTransfers,
    block_hash_or_number_param: () => facts.headBlockNumber,
    token_id_param: () => facts.bigTokenId,
    block_number_param: () => facts.headBlockNumber,
  };
  let followed = 0;
  for (const name of ENDPOINT_NAMES) {
    const e = ENDPOINTS[name];
    if (e.produces !== undefined || e.meta === true) continue;
    const path = Object.fromEntries(Object.keys(e.path).map((p) => [p, pathValues[p]?.(e.route)]));
    const query = 'items_count' in e.query ? { items_count: 1 } : {};
    const first = await loose[name]!(path, query);
    const next = first.ok ? first.body.next_page_params : undefined;
    if (next === undefined || next === null) continue;
    const second = await loose[name]!(path, next);
    t.equal(second.status, 200, `${name}: next page ${toJson(next as never)}`);
    conforms(t, name, second.body);
    followed += 1;
  }
  t.ok(followed >= 20, `${followed} endpoints followed to a second page`);
});

t.test('a CSV export answers a stream', async (t) => {
  const r = await api.addressTransactionsCsv({ address_hash_param: hot }, { from_period: new Date(0), to_period: null });
  t.ok(r.ok);
  if (!r.ok) return;
  let text = '';
  for await (const chunk of r.stream) text += chunk;
  t.match(text, /^TxHash,/);
  t.equal(r.body, null);
});

t.test('what does not compile', async (t) => {
  if (false as boolean) {
    // @ts-expect-error a transaction hash where an address belongs
    await api.address({ address_hash_param: txHash });
    // @ts-expect-error an address where a transaction hash belongs
    await api.transaction({ transaction_hash_param: hot });
    // @ts-expect-error a block hash is not a transaction hash
    await api.transactionLogs({ transaction_hash_param: asBlockHash(facts.headBlockHash) });
    // @ts-expect-error a plain string is no address: make one with asAddress
    await api.address({ address_hash_param: '0x0000000000000000000000000000000000000001' });
    // @ts-expect-error a wrong enum value (`type` of /blocks)
    await api.blocks({}, { type: 'blocks' });
    // @ts-expect-error a wrong enum value (`filter` of an address's transactions)
    await api.addressTransactions({ address_hash_param: hot }, { filter: 'both' });
    // @ts-expect-error a wrong token type
    await api.addressTokens({ address_hash_param: hot }, { type: 'ERC-20000' });
    // @ts-expect-error an unknown query name
    await api.blocks({}, { page: 2 });
    // @ts-expect-error an unknown path name
    await api.addressTokens({ hash: hot });
    // @ts-expect-error an integer is a number, not any object
    await api.blocks({}, { items_count: { n: 5 } });
    const blocks = await api.blocks({});
    if (blocks.ok && blocks.body.next_page_params !== null) {
      const next: NextPageParams<'blocks'> = blocks.body.next_page_params;
      // @ts-expect-error one endpoint's next page is not another's query
      await api.transactions({}, next);
    }
    // @ts-expect-error the body of a failure is an error body, not the list
    if (!blocks.ok) blocks.body.items;
    // @ts-expect-error the body is unread until `ok` is known
    blocks.body.items;
  }
  t.pass('the lines above are checked by tsc --noEmit -p .');
});
