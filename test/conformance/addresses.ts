/**
 * The address pages (issue 8): filters, orders and paging keys, checked against the fixture
 * chain's own records.
 */
import type { Test } from 'tap';
import { TOPICS } from '../../fixture/index.ts';
import { coinChanges } from './walks.ts';
import type { Body, Loaded } from '../support/explorer.ts';
import { okGetter, walk } from '../support/explorer.ts';

const items = (b: Body): Body[] => b['items'] as Body[];
const lower = (a: unknown): string | null => (a === null ? null : ((a as Body)['hash'] as string).toLowerCase());

export async function addressSuite(t: Test, loaded: Loaded): Promise<void> {
  const { explorer: ex, chain } = loaded;
  const f = chain.facts;
  const get = okGetter(ex);
  const allTxs = chain.bundles.flatMap((b) => b.transactions);

  await t.test('address transactions: directions, created contracts, orders, paging keys', async (t) => {
    const erin = f.eoas.erin;
    const all = (await walk(ex, `/api/v2/addresses/${erin}/transactions`)).items;
    const from = (await walk(ex, `/api/v2/addresses/${erin}/transactions`, { filter: 'from' })).items;
    const to = (await walk(ex, `/api/v2/addresses/${erin}/transactions`, { filter: 'to' })).items;
    t.ok(from.every((i) => lower(i['from']) === erin), 'filter=from: sent by the address');
    t.ok(to.every((i) => lower(i['to']) === erin || lower(i['created_contract']) === erin), 'filter=to: received (or created)');
    t.same(new Set(all.map((i) => i['hash'])), new Set([...from, ...to].map((i) => i['hash'])), 'no filter: the union of both');
    const pendingCount = chain.pending.filter((p) => p.from === erin || p.to === erin).length;
    t.ok(pendingCount > 0, 'the fixture has pending transactions of the address');
    t.ok(all.slice(0, pendingCount).every((i) => i['block_number'] === null), 'pending first');
    const asc = (await walk(ex, `/api/v2/addresses/${erin}/transactions`, { sort: 'block_number', order: 'asc' })).items;
    t.same(asc.map((i) => i['hash']), [...all].reverse().map((i) => i['hash']), 'sort=block_number&order=asc is the exact reverse');
    const sortOnly = await get(`/addresses/${erin}/transactions`, { order: 'asc' });
    t.same(items(sortOnly).map((i) => i['hash']), all.slice(0, 50).map((i) => i['hash']), 'order without sort: the default order');
    const creation = allTxs.find((x) => x.createdContract !== null && x.to === null);
    t.ok(creation, 'the fixture has a top-level contract creation');
    if (creation !== undefined && creation.createdContract !== null) {
      const created = (await walk(ex, `/api/v2/addresses/${creation.createdContract}/transactions`, { filter: 'to' })).items;
      t.ok(created.some((i) => i['hash'] === creation.hash), 'filter=to lists the transaction that created the contract');
    }
    const first = await get(`/addresses/${erin}/transactions`, { filter: 'from', items_count: '3' });
    const np = first['next_page_params'] as Body;
    t.same(Object.keys(np).sort(), ['block_number', 'fee', 'filter', 'hash', 'index', 'inserted_at', 'items_count', 'value'], 'next_page_params: every key, the filter echoed');
    const legacy = await get(`/addresses/${erin}/transactions`, { filter: 'from', items_count: '3', block_number: String(np['block_number']), index: String(np['index']) });
    const viaAll = await get(`/addresses/${erin}/transactions`, { filter: 'from', items_count: '3', ...Object.fromEntries(Object.entries(np).map(([k, v]) => [k, v === null ? 'null' : String(v)])) });
    t.same(items(legacy), items(viaAll), 'the legacy {block_number, index} pair resumes at the same place');
    const sentinel = await get(`/addresses/${erin}/transactions`, { block_number: '0', index: '0' });
    t.same(items(sentinel), [], 'the {0,0} cursor is past every validated transaction');
  });

  await t.test('address token transfers: token, type and direction filters', async (t) => {
    const a = f.hotAddress;
    const erc20 = (await walk(ex, `/api/v2/addresses/${a}/token-transfers`, { token: f.tokens.erc20 })).items;
    t.ok(erc20.length > 0 && erc20.every((i) => ((i['token'] as Body)['address_hash'] as string).toLowerCase() === f.tokens.erc20), 'token= narrows to one token');
    const records = chain.bundles.flatMap((b) => b.tokenTransfers).filter((r) => r.tokenAddress === f.tokens.erc20 && (r.from === a || r.to === a));
    t.equal(erc20.length, records.length, 'and lists all of its transfers');
    const unknown = await get(`/addresses/${a}/token-transfers`, { token: f.unknownAddress });
    t.same(unknown, { items: [], next_page_params: null }, 'an unknown token → an empty page');
    const typed = (await walk(ex, `/api/v2/addresses/${a}/token-transfers`, { type: '[ERC-721,ERC-1155]' })).items;
    t.ok(typed.length > 0 && typed.every((i) => ['ERC-721', 'ERC-1155'].includes(i['token_type'] as string)), 'type= narrows to the listed types');
    const np = (await get(`/addresses/${a}/token-transfers`, { filter: 'to', type: 'ERC-20', items_count: '2' }))['next_page_params'] as Body;
    t.same(Object.keys(np).sort(), ['block_number', 'filter', 'index', 'items_count'], 'filter echoed, type not');
    const plain = (await get(`/addresses/${a}/token-transfers`))['next_page_params'] as Body;
    t.notOk('items_count' in plain, 'items_count only when sent, as on the other transfer lists');
  });

  await t.test('address logs: emitter and topic', async (t) => {
    const token = f.tokens.erc20;
    const all = (await walk(ex, `/api/v2/addresses/${token}/logs`)).items;
    t.ok(all.every((i) => ((i['address'] as Body)['hash'] as string).toLowerCase() === token), 'only logs the address emitted');
    const approvals = (await walk(ex, `/api/v2/addresses/${token}/logs`, { topic: TOPICS.approval.toUpperCase().replace('0X', '0x') })).items;
    const expected = chain.bundles.flatMap((b) => b.logs).filter((l) => l.address === token && l.topics.includes(TOPICS.approval));
    t.ok(expected.length > 0, 'the fixture has approvals');
    t.equal(approvals.length, expected.length, 'topic= (any case) finds every log carrying it');
    for (const blank of ['', 'null']) {
      const b = await get(`/addresses/${token}/logs`, { topic: blank });
      t.same(items(b), all.slice(0, 50), `topic=${JSON.stringify(blank)}: no filter`);
    }
    const np = (await get(`/addresses/${token}/logs`, { topic: TOPICS.transfer, items_count: '5' }))['next_page_params'] as Body;
    t.same(Object.keys(np).sort(), ['block_number', 'index', 'items_count', 'topic'], 'next_page_params');
  });

  await t.test('address NFT instances: the holder\'s instances of each collection, type filter, paging keys', async (t) => {
    const a = f.hotAddress;
    const listed = (await walk(ex, `/api/v2/addresses/${a}/nft`)).items;
    const collections = (await walk(ex, `/api/v2/addresses/${a}/nft/collections`)).items;
    const viaTokens: string[] = [];
    for (const c of collections) {
      const token = (c['token'] as Body)['address_hash'] as string;
      const held = (await walk(ex, `/api/v2/tokens/${token}/instances`, { holder_address_hash: a })).items;
      viaTokens.push(...held.map((i) => `${token}:${i['id']}:${i['value']}`));
    }
    t.same(
      listed.map((i) => `${(i['token'] as Body)['address_hash']}:${i['id']}:${i['value']}`),
      viaTokens,
      'the same instances and values as /tokens/{c}/instances?holder_address_hash, collection by collection',
    );
    const only404 = (await walk(ex, `/api/v2/addresses/${a}/nft`, { type: 'ERC-404' })).items;
    t.ok(only404.length > 0 && only404.every((i) => i['token_type'] === 'ERC-404'), 'type=ERC-404');
    t.same((await get(`/addresses/${a}/nft`, { type: 'ERC-20' }))['items'], (await get(`/addresses/${a}/nft`))['items'], 'a fungible-only type means every NFT type');
    const np = (await get(`/addresses/${a}/nft`, { type: 'ERC-721', items_count: '2' }))['next_page_params'] as Body;
    t.same(Object.keys(np).sort(), ['items_count', 'token_contract_address_hash', 'token_id', 'token_type'], 'next_page_params; type not echoed');
    t.type(np['token_id'], 'string', 'token_id as a string');
  });

  await t.test('tabs-counters: each tab counted to at most 51, against the fixture\'s records', async (t) => {
    const b = chain.bundles;
    const txs = [...b.flatMap((x) => x.transactions), ...chain.pending];
    const internal = b.flatMap((x) => x.internalTransactions).filter((it) => !(it.type === 'call' && it.index === 0));
    const cap = (n: number) => Math.min(n, 51);
    for (const a of [f.hotAddress, f.eoas.erin, f.eoas.carol, f.miner, f.secondMiner, f.contracts.emitter, f.tokens.erc404, f.unknownAddress]) {
      const balances = (await walk(ex, `/api/v2/addresses/${a}/tokens`)).items.length;
      const expected = {
        internal_transactions_count: cap(internal.filter((it) => it.from === a || it.to === a || it.createdContract === a).length),
        logs_count: cap(b.flatMap((x) => x.logs).filter((l) => l.address === a).length),
        token_balances_count: cap(balances),
        token_transfers_count: cap(b.flatMap((x) => x.tokenTransfers).filter((r) => r.from === a || r.to === a).length),
        transactions_count: cap(txs.filter((x) => x.from === a || x.to === a || x.createdContract === a).length),
        validations_count: cap(b.filter((x) => x.block.miner === a).length),
        withdrawals_count: 0,
      };
      t.same(await get(`/addresses/${a}/tabs-counters`), expected, a);
    }
    t.ok(Object.values(await get(`/addresses/${f.hotAddress}/tabs-counters`)).includes(51), 'the cap is reached on the hot address');
  });

  await t.test('address detail: balance, creation, token, has_* flags, the unknown address', async (t) => {
    const b = chain.bundles;
    const unknown = await get(`/addresses/${f.unknownAddress}`);
    const hash = unknown['hash'] as string;
    t.equal(hash.toLowerCase(), f.unknownAddress);
    t.same(
      unknown,
      {
        hash, implementations: [], is_contract: false, is_scam: false, is_verified: false, metadata: null, name: null, proxy_type: null,
        reputation: 'ok', ens_domain_name: null, private_tags: [], public_tags: [], watchlist_names: [],
        block_number_balance_updated_at: null, coin_balance: null, creation_status: null, creation_transaction_hash: null,
        creator_address_hash: null, exchange_rate: null, has_beacon_chain_withdrawals: false, has_logs: false,
        has_token_transfers: false, has_tokens: false, has_validated_blocks: false, token: null, watchlist_address_id: null,
      },
      'an address never seen: 200 with the empty defaults',
    );
    const lastCoin = (a: string) => b.flatMap((x) => x.coinBalances).filter((c) => c.address === a).sort((x, y) => x.blockNumber - y.blockNumber).at(-1);
    for (const a of [f.eoas.alice, f.hotAddress, f.miner, f.tokens.erc20, f.contracts.emitter]) {
      const d = await get(`/addresses/${a}`);
      const coin = lastCoin(a);
      t.equal(d['coin_balance'], coin === undefined ? null : coin.value.toString(), `${a}: coin_balance = the newest balance record`);
      t.equal(d['block_number_balance_updated_at'], coin?.blockNumber ?? null, `${a}: its block`);
      t.equal(d['has_logs'], b.some((x) => x.logs.some((l) => l.address === a)), `${a}: has_logs`);
      t.equal(d['has_token_transfers'], b.some((x) => x.tokenTransfers.some((r) => r.from === a || r.to === a)), `${a}: has_token_transfers`);
      t.equal(d['has_validated_blocks'], b.some((x) => x.block.miner === a), `${a}: has_validated_blocks`);
      t.equal(d['has_tokens'], (await get(`/addresses/${a}/token-balances`) as unknown as unknown[]).length > 0, `${a}: has_tokens = token-balances not empty`);
    }
    t.ok(lastCoin(f.eoas.alice) !== undefined, 'the fixture records coin balances');
    const erc20 = await get(`/addresses/${f.tokens.erc20}`);
    t.equal((erc20['token'] as Body)['type'], 'ERC-20', 'a token contract embeds its token');
    t.equal(erc20['is_contract'], true);
    t.equal((await get(`/addresses/${f.eoas.alice}`))['token'], null, 'an EOA: no token');
    t.equal((await get(`/addresses/${f.eoas.alice}`))['creation_status'], null, 'an EOA: no creation status');
    // every contract the fixture says was created: creator and transaction as written, status from the creating transaction
    const created = b.flatMap((x) => x.addresses).filter((w) => w.isContract && w.creationTransactionHash !== null);
    t.ok(created.length > 2, 'the fixture creates contracts');
    for (const w of created.slice(0, 12)) {
      const d = await get(`/addresses/${w.hash}`);
      t.equal(d['creation_transaction_hash'], w.creationTransactionHash, `${w.hash}: creation transaction`);
      t.equal((d['creator_address_hash'] as string | null)?.toLowerCase() ?? null, w.creatorAddress, `${w.hash}: creator`);
      t.ok(['success', 'failed'].includes(d['creation_status'] as string), `${w.hash}: creation status`);
    }
    const top = await get(`/addresses/${f.transactions.contractCreationAddress}`);
    const creation = allTxs.find((x) => x.hash === f.transactions.contractCreation);
    t.equal(top['creation_transaction_hash'], f.transactions.contractCreation, 'a top-level creation: its transaction');
    t.equal((top['creator_address_hash'] as string).toLowerCase(), creation?.from, 'and its sender');
    t.equal(top['creation_status'], creation?.status === 'error' ? 'failed' : 'success');
  });

  await t.test('coin balance history: values and deltas of the recorded balances, the changing transaction', async (t) => {
    for (const a of [f.eoas.alice, f.hotAddress, f.miner]) {
      const listed = (await walk(ex, `/api/v2/addresses/${a}/coin-balance-history`, { items_count: '9' })).items;
      const expected = coinChanges(chain, a).reverse();
      t.ok(expected.length > 0, `${a}: the fixture records its balance`);
      t.same(
        listed.map((i) => [i['block_number'], i['value'], i['delta']]),
        expected.map((c) => [c.blockNumber, c.value.toString(), c.delta.toString()]),
        `${a}: one item per change, newest first, delta = value − the older value`,
      );
      const touching = new Map<string, number>();
      for (const b of chain.bundles) {
        for (const x of b.transactions) if (x.from === a || x.to === a || x.createdContract === a) touching.set(x.hash, b.block.number);
        for (const it of b.internalTransactions) if (it.from === a || it.to === a || it.createdContract === a) touching.set(it.transactionHash, b.block.number);
      }
      const named = listed.filter((i) => i['transaction_hash'] !== null);
      t.ok(named.every((i) => touching.get(i['transaction_hash'] as string) === i['block_number']), `${a}: the transaction named is the address's, in that block`);
      if (a !== f.miner) t.ok(named.length > 0, `${a}: changing transactions are named`);
    }
    const one = await get(`/addresses/${f.eoas.alice}/coin-balance-history`, { items_count: '1' });
    const item = items(one)[0] as Body;
    const block = await get(`/blocks/${item['block_number']}`);
    t.equal(item['block_timestamp'], block['timestamp'], 'a one-block page: the block\'s own timestamp');
    t.same(await get(`/addresses/${f.eoas.alice}/coin-balance-history`, { block_number: '0' }), { items: [], next_page_params: null }, 'block_number=0 → empty');
  });

  /** Blockscout's counters, counted straight from the fixture's records (consensus blocks and the mempool). */
  const consensus = chain.bundles.filter((b) => b.block.consensus);
  const counted = [...consensus.flatMap((b) => b.transactions), ...chain.pending];
  const isContract = (a: string): boolean => {
    let last: { block: number; contract: boolean } | undefined;
    for (const r of consensus.flatMap((b) => b.addresses)) if (r.hash === a && (last === undefined || r.blockNumber >= last.block)) last = { block: r.blockNumber, contract: r.isContract };
    return last?.contract === true;
  };
  const sum = (xs: readonly (bigint | null)[]) => xs.reduce<bigint>((s, x) => s + (x ?? 0n), 0n);
  const oracle = (a: string) => {
    const contract = isContract(a);
    const incoming = counted.filter((x) => x.to === a);
    const outgoing = counted.filter((x) => x.from === a);
    const gasIn = sum(incoming.map((x) => x.gasUsed));
    return {
      gas_usage_count: String(contract ? (gasIn > 0n ? gasIn : sum(outgoing.map((x) => x.gasUsed))) : sum(outgoing.map((x) => x.gasUsed))),
      token_transfers_count: String(consensus.flatMap((b) => b.tokenTransfers).filter((r) => r.from === a || r.to === a).length),
      transactions_count: String(contract ? incoming.length : counted.filter((x) => x.from === a || x.to === a).length),
      validations_count: String(chain.bundles.filter((b) => b.block.miner === a).length),
    };
  };

  await t.test('address counters: the kept counts equal counts over the fixture\'s records', async (t) => {
    const addresses = [f.hotAddress, f.miner, f.secondMiner, f.eoas.alice, f.eoas.erin, f.eoas.deployer, f.tokens.erc20, f.contracts.router, f.airdropRecipients[0] ?? f.miner];
    for (const a of addresses) t.same(await get(`/addresses/${a}/counters`), oracle(a), a);
    t.ok(isContract(f.hotAddress) && Number(oracle(f.hotAddress).transactions_count) > 0, 'a contract with transactions to it');
    t.equal(oracle(f.miner).validations_count, String(f.minerBlockCount), 'the miner validated its blocks');
    t.ok(chain.pending.some((p) => p.from === f.eoas.alice), 'alice has pending transactions (counted)');
    const zero = { gas_usage_count: '0', token_transfers_count: '0', transactions_count: '0', validations_count: '0' };
    t.same(await get(`/addresses/${f.unknownAddress}/counters`), zero, 'an unknown address: all "0"');
  });

  await t.test('top accounts: positive current balances, Blockscout\'s orders and keys', async (t) => {
    const latest = new Map<string, { value: bigint; block: number }>();
    for (const c of consensus.flatMap((b) => b.coinBalances)) {
      const prev = latest.get(c.address);
      if (prev === undefined || prev.block <= c.blockNumber) latest.set(c.address, { value: c.value, block: c.blockNumber });
    }
    const rich = [...latest].filter(([, v]) => v.value > 0n).map(([a, v]) => ({ a, value: v.value, txs: BigInt(oracle(a).transactions_count) }));
    const byBalance = [...rich].sort((x, y) => (x.value === y.value ? (x.a < y.a ? -1 : 1) : x.value > y.value ? -1 : 1));
    const all = (await walk(ex, '/api/v2/addresses', { items_count: '13' })).items;
    t.same(
      all.map((i) => [lower(i), i['coin_balance'], i['transactions_count']]),
      byBalance.map((r) => [r.a, String(r.value), String(r.txs)]),
      'every address with a positive balance, balance DESC then hash ASC, with its transactions count',
    );
    const byCount = [...rich].sort((x, y) => (x.txs !== y.txs ? (x.txs > y.txs ? -1 : 1) : x.value !== y.value ? (x.value > y.value ? -1 : 1) : x.a < y.a ? -1 : 1));
    const counted = (await walk(ex, '/api/v2/addresses', { sort: 'transactions_count', order: 'desc', items_count: '11' })).items;
    t.same(counted.map((i) => lower(i)), byCount.map((r) => r.a), 'sort=transactions_count&order=desc: count DESC, balance DESC, hash ASC');
    const asc = (await walk(ex, '/api/v2/addresses', { sort: 'balance', order: 'asc' })).items;
    const ascOrder = [...rich].sort((x, y) => (x.value === y.value ? (x.a < y.a ? -1 : 1) : x.value < y.value ? -1 : 1));
    t.same(asc.map((i) => lower(i)), ascOrder.map((r) => r.a), 'sort=balance&order=asc: balance ASC, hash still ASC');
    const first = await get('/addresses', { items_count: '2' });
    const second = byBalance[1];
    t.same(
      first['next_page_params'],
      { fetched_coin_balance: String(second?.value), hash: second?.a, items_count: 2, transactions_count: Number(second?.txs) },
      'next_page_params: fetched_coin_balance, hash, items_count, transactions_count',
    );
    t.equal(first['exchange_rate'], null);
    t.equal(first['total_supply'], null);
    const echoed = await get('/addresses', { sort: 'balance', order: 'desc', items_count: '2' });
    t.match(echoed['next_page_params'], { sort: 'balance', order: 'desc' }, 'sort and order echoed');
    const page1 = items(await get('/addresses'));
    t.same(items(await get('/addresses', { order: 'asc' })), page1, 'order without sort: the default order (echoed all the same)');
    t.same(items(await get('/addresses', { sort: 'transactions_count' })), page1, 'sort without order: the default order');
    const partial = await get('/addresses', { fetched_coin_balance: String(second?.value), hash: second?.a ?? '' });
    t.same(partial, await get('/addresses'), 'a cursor without transactions_count: the first page');
    const nulls = await get('/addresses', { sort: 'transactions_count', order: 'desc', fetched_coin_balance: '1', hash: f.eoas.alice, transactions_count: 'null' });
    t.same(items(nulls), [], 'transactions_count=null sorts last in desc: nothing after it');
  });

  await t.test('coin balance history by day: the fixture chain is older than the 10-day window', async (t) => {
    for (const a of [f.miner, f.unknownAddress]) t.same(await get(`/addresses/${a}/coin-balance-history-by-day`), { days: 10, items: [] }, a);
  });
}
