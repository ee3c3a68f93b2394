/**
 * Filters and derived fields, checked against the fixture chain's own records.
 */
import type { Test } from 'tap';
import { getAddress as toChecksum } from 'viem';
import { hex, TOKEN_TYPES, toJson, TRANSACTION_KINDS } from '../../lib/index.ts';
import type { Body, Loaded } from '../support/explorer.ts';
import { bodyOf, okGetter, walk } from '../support/explorer.ts';
import { checksum } from '../../lib/render/format.ts';
import { averageSpacingMs, averageWindow } from '../../lib/stats/averageBlockTime.ts';
import { gasPrices, networkUtilization } from '../../lib/stats/gasPrices.ts';

const items = (b: Body): Body[] => b['items'] as Body[];
const tokenOf = (i: Body): Body => i['token'] as Body;

export async function behaviourSuite(t: Test, loaded: Loaded): Promise<void> {
  const { explorer: ex, chain } = loaded;
  const f = chain.facts;
  const get = okGetter(ex);
  const allTxs = chain.bundles.flatMap((b) => b.transactions);
  const txRecord = (hash: string) => allTxs.find((x) => x.hash === hash);

  await t.test('token type filter: lists, brackets, case, empty', async (t) => {
    const all = (await walk(ex, `/api/v2/addresses/${f.hotAddress}/tokens`)).items;
    const only721 = (await walk(ex, `/api/v2/addresses/${f.hotAddress}/tokens`, { type: 'ERC-721' })).items;
    t.ok(only721.length > 0 && only721.every((i) => tokenOf(i)['type'] === 'ERC-721'), 'type=ERC-721 → only ERC-721');
    t.equal(only721.length, all.filter((i) => tokenOf(i)['type'] === 'ERC-721').length, 'and all of them');
    const two = (await walk(ex, `/api/v2/addresses/${f.hotAddress}/tokens`, { type: 'ERC-1155,ERC-404' })).items;
    t.same(new Set(two.map((i) => tokenOf(i)['type'])), new Set(['ERC-1155', 'ERC-404']), 'a list ORs the types');
    const bracketed = (await walk(ex, `/api/v2/addresses/${f.hotAddress}/tokens`, { type: '[erc-1155,Erc-404]' })).items;
    t.same(bracketed, two, 'brackets and any case mean the same');
    const empty = (await walk(ex, `/api/v2/addresses/${f.hotAddress}/tokens`, { type: '' })).items;
    t.same(empty, all, 'empty type = no filter');
    const unbalanced = (await walk(ex, `/api/v2/addresses/${f.hotAddress}/tokens`, { type: 'ERC-20]' })).items;
    t.same(unbalanced, all, '`ERC-20]` (no leading bracket) is not recognised → no filter, as Blockscout');
    const transfers = (await get('/token-transfers', { type: 'ERC-7984' }));
    t.ok(items(transfers).length > 0 && items(transfers).every((i) => i['token_type'] === 'ERC-7984'), '/token-transfers?type=ERC-7984');
  });

  await t.test('NFT collections: fungible-only type means every NFT type; type never echoed', async (t) => {
    const all = await get(`/addresses/${f.hotAddress}/nft/collections`);
    const erc20 = await get(`/addresses/${f.hotAddress}/nft/collections`, { type: 'ERC-20' });
    t.same(erc20, all);
    const only1155 = await get(`/addresses/${f.hotAddress}/nft/collections`, { type: 'ERC-1155' });
    t.ok(items(only1155).every((c) => tokenOf(c)['type'] === 'ERC-1155'));
    const np = (await get(`/addresses/${f.hotAddress}/nft/collections`, { type: 'ERC-721,ERC-1155' }))['next_page_params'] as Body;
    t.notOk('type' in np, 'no `type` in next_page_params');
    const first = items(all)[0] as Body;
    for (const inst of first['token_instances'] as Body[]) {
      t.equal(inst['token'], null);
      t.equal(inst['owner'], null);
      t.equal(inst['is_unique'], null);
    }
    t.ok((first['token_instances'] as Body[]).length <= 9, 'at most 9 instances per collection');
  });

  await t.test('transactions: status, kind and method filters', async (t) => {
    const pending = await walk(ex, '/api/v2/transactions', { filter: 'pending' });
    t.same(pending.items.map((i) => i['hash']), f.pendingHashes, 'pending: inserted_at DESC, hash ASC');
    for (const p of pending.items) {
      t.equal(p['block_number'], null);
      t.equal(p['result'], 'pending');
      t.equal(p['confirmations'], 0);
      t.equal((p['fee'] as Body)['type'], 'maximum');
    }
    const coin = (await walk(ex, '/api/v2/transactions', { type: 'coin_transfer' })).items;
    t.equal(coin.length, allTxs.filter((x) => x.value > 0n).length, 'type=coin_transfer → value > 0');
    const creations = (await walk(ex, '/api/v2/transactions', { type: 'contract_creation,token_creation' })).items;
    t.ok(creations.length > 0 && creations.every((i) => i['to'] === null || (i['transaction_types'] as string[]).includes('token_creation')));
    const byName = (await walk(ex, '/api/v2/transactions', { method: 'transfer' })).items;
    const bySelector = (await walk(ex, '/api/v2/transactions', { method: '0xa9059cbb' })).items;
    t.ok(byName.length > 0, 'method=transfer finds transfers');
    t.same(bySelector, byName, 'a method by name = by selector');
    t.equal(byName.length, allTxs.filter((x) => x.methodId === hex('0xa9059cbb')).length);
    const sentinel = await get('/transactions', { block_number: '0', index: '0' });
    t.same(sentinel, { items: [], next_page_params: null }, 'the {0,0} cursor is the end');
  });

  await t.test('transaction detail: derived fields', async (t) => {
    const head = f.headBlockNumber;
    const tx = await get(`/transactions/${f.transactions.eip1559}`);
    const rec = txRecord(f.transactions.eip1559);
    t.ok(rec);
    if (rec === undefined) return;
    t.equal(tx['confirmations'], head - (rec.blockNumber as number) + 1, 'confirmations = head − block + 1');
    t.equal((tx['fee'] as Body)['type'], 'actual');
    t.equal((tx['fee'] as Body)['value'], ((rec.gasUsed as bigint) * BigInt(tx['gas_price'] as string)).toString(), 'fee = gas_used × gas_price');
    t.equal(tx['status'], 'ok');
    t.equal(tx['result'], 'success');
    const reverted = await get(`/transactions/${f.transactions.reverted}`);
    t.equal(reverted['status'], 'error');
    t.equal(reverted['result'], 'execution reverted');
    const reason = reverted['revert_reason'] as Body;
    t.equal(((reason['parameters'] as Body[])[0] as Body)['value'], f.revertMessage, 'revert reason decoded');
    const listed = items(await get('/transactions', { block_number: String((txRecord(f.transactions.reverted)?.blockNumber ?? 0) + 1) })).find(
      (i) => i['hash'] === f.transactions.reverted,
    );
    t.same(listed?.['revert_reason'], { raw: txRecord(f.transactions.reverted)?.revertReason }, 'lists carry the raw revert reason');
    t.equal(listed?.['token_transfers'], null, 'lists: token_transfers null');
    const creation = await get(`/transactions/${f.transactions.contractCreation}`);
    t.equal(creation['to'], null, 'contract creation: to is null');
    t.equal(((creation['created_contract'] as Body)['hash'] as string).toLowerCase(), f.transactions.contractCreationAddress);
    t.ok((creation['transaction_types'] as string[]).includes('contract_creation'));
    const failedInternal = await get(`/transactions/${f.transactions.failedInternalCall}`);
    t.equal(failedInternal['has_error_in_internal_transactions'], true);
    const coin = await get(`/transactions/${f.transactions.coinTransfer}`);
    t.same(coin['transaction_types'], ['coin_transfer']);
    t.equal(coin['method'], null, 'no input → method null');
  });

  await t.test('embedded token transfers: cap 10 and overflow', async (t) => {
    const many = await get(`/transactions/${f.transactions.manyTokenTransfers}`);
    t.equal((many['token_transfers'] as Body[]).length, 10);
    t.equal(many['token_transfers_overflow'], true);
    const none = await get(`/transactions/${f.transactions.coinTransfer}`);
    t.same(none['token_transfers'], []);
    t.equal(none['token_transfers_overflow'], false);
  });

  await t.test('token transfer type and ERC-1155 batches', async (t) => {
    const typeOf = async (hash: string) => ((await get(`/transactions/${hash}`))['token_transfers'] as Body[]).map((i) => i['type']);
    t.ok((await typeOf(f.transactions.mint)).includes('token_minting'), 'mint');
    t.ok((await typeOf(f.transactions.burn)).includes('token_burning'), 'burn');
    t.ok((await typeOf(f.transactions.spawn)).includes('token_spawning'), 'spawn');
    const batch = (await get(`/transactions/${f.transactions.erc1155BatchRepeatedId}`))['token_transfers'] as Body[];
    const rec = chain.bundles.flatMap((b) => b.tokenTransfers).find((r) => r.transactionHash === f.transactions.erc1155BatchRepeatedId && r.tokenIds.length > 1);
    t.ok(rec, 'the fixture has the batch');
    if (rec === undefined) return;
    const distinct = [...new Set(rec.tokenIds)];
    t.same(batch.map((i) => (i['total'] as Body)['token_id']), distinct.reverse().map(String), 'one item per distinct id, highest batch position first');
    for (const item of batch) {
      const id = BigInt((item['total'] as Body)['token_id'] as string);
      const sum = rec.tokenIds.reduce((s, x, i) => (x === id ? s + (rec.amounts[i] as bigint) : s), 0n);
      t.equal((item['total'] as Body)['value'], sum.toString(), `id ${id}: repeated amounts summed`);
    }
  });

  await t.test('tokens: the token object, counters and per-instance transfer counts from the records', async (t) => {
    const transfers = chain.bundles.flatMap((b) => b.tokenTransfers);
    for (const address of [f.busyToken, f.tokens.erc20, f.tokens.erc721, f.tokens.erc1155]) {
      const token = await get(`/tokens/${address}`);
      t.equal((token['address_hash'] as string).toLowerCase(), address, `${address}: the token`);
      const counters = await get(`/tokens/${address}/counters`);
      t.equal(counters['transfers_count'], String(transfers.filter((r) => r.tokenAddress === address).length), `${address}: transfers_count`);
      t.equal(counters['token_holders_count'], token['holders_count'], `${address}: token_holders_count = holders_count`);
    }
    const batch = transfers.find((r) => r.transactionHash === f.transactions.erc1155BatchRepeatedId && r.tokenIds.length > 1);
    t.ok(batch, 'the fixture has a batch repeating an id');
    const ids: [string, bigint][] = [[f.tokens.erc721, f.bigTokenId], [f.tokens.erc1155, f.huge1155Id], ...(batch === undefined ? [] : batch.tokenIds.map((id): [string, bigint] => [batch.tokenAddress, id]))];
    for (const [address, id] of ids) {
      const expected = transfers.filter((r) => r.tokenAddress === address && r.tokenIds.includes(id)).length;
      t.ok(expected > 0, `${address} #${id}: has transfers`);
      t.same(await get(`/tokens/${address}/instances/${id}/transfers-count`), { transfers_count: expected }, `${address} #${id}: a number, a batch once`);
    }
    t.same(await get(`/tokens/${f.tokens.erc721}/instances/${f.bigTokenId + 7n}/transfers-count`), { transfers_count: 0 }, 'an id without transfers: 0');
    const nft = await get(`/tokens/${f.tokens.erc721}/instances/${f.bigTokenId}`);
    t.equal(nft['id'], f.bigTokenId.toString(), 'instance id exact beyond 2^53');
    t.equal(nft['is_unique'], true, 'ERC-721 instances are unique');
    const last = transfers.filter((r) => r.tokenAddress === f.tokens.erc721 && r.tokenIds.includes(f.bigTokenId)).sort((a, b) => b.blockNumber - a.blockNumber || b.logIndex - a.logIndex)[0];
    t.equal(((nft['owner'] as Body)['hash'] as string).toLowerCase(), last?.to, 'owner = receiver of the latest transfer');
  });

  await t.test('token holders: every current balance once, value DESC, at any page size', async (t) => {
    const ZERO = '0x0000000000000000000000000000000000000000';
    const latest = new Map<string, { holder: string; token: string; id: bigint | null; value: bigint; block: number; type: string }>();
    for (const b of chain.bundles.filter((x) => x.block.consensus).flatMap((x) => x.tokenBalances)) {
      const k = `${b.holder}|${b.tokenAddress}|${b.tokenId ?? ''}`;
      const prev = latest.get(k);
      if (prev === undefined || prev.block <= b.blockNumber) latest.set(k, { holder: b.holder, token: b.tokenAddress, id: b.tokenId, value: b.value, block: b.blockNumber, type: b.tokenType });
    }
    const held = [...latest.values()].filter((b) => b.holder !== ZERO && (b.value > 0n || b.type === 'ERC-7984'));
    const row = (i: Body) => `${((i['address'] as Body)['hash'] as string).toLowerCase()}|${i['token_id'] ?? ''}|${i['value']}`;
    const lists: [string, (b: (typeof held)[number]) => boolean][] = [
      [`/tokens/${f.busyToken}/holders`, (b) => b.token === f.busyToken],
      [`/tokens/${f.tokens.erc1155}/holders`, (b) => b.token === f.tokens.erc1155],
      [`/tokens/${f.tokens.erc721}/holders`, (b) => b.token === f.tokens.erc721],
      [`/tokens/${f.tokens.erc1155}/instances/${f.huge1155Id}/holders`, (b) => b.token === f.tokens.erc1155 && b.id === f.huge1155Id],
      [`/tokens/${f.tokens.erc721}/instances/${f.bigTokenId}/holders`, () => false],
    ];
    for (const [path, pick] of lists) {
      const expected = held.filter(pick).map((b) => `${b.holder}|${b.id ?? ''}|${b.value}`);
      for (const size of ['3', '50']) {
        const got = (await walk(ex, `/api/v2${path}`, { items_count: size })).items.map(row);
        t.same([...got].sort(), [...expected].sort(), `${path} (${size} a page): every holder row once`);
        const values = got.map((r) => BigInt(r.split('|')[2] as string));
        t.ok(values.every((v, i) => i === 0 || (values[i - 1] as bigint) >= v), `${path} (${size} a page): value DESC`);
      }
    }
    t.ok(held.filter((b) => b.token === f.busyToken).length > 50, 'the busy token has more than one page of holders');
    for (const address of [f.busyToken, f.tokens.erc721, f.tokens.erc1155, f.tokens.erc404]) {
      const token = await get(`/tokens/${address}`);
      const distinct = new Set(held.filter((b) => b.token === address).map((b) => b.holder)).size;
      t.equal(token['holders_count'], String(distinct), `${address}: holders_count = distinct holders (ids counted once)`);
    }
  });

  await t.test('internal transactions of one transaction: index ASC, no top call', async (t) => {
    const list = (await walk(ex, '/api/v2/internal-transactions', { transaction_hash: f.transactions.createdByContract })).items;
    t.ok(list.length > 0);
    t.ok(list.every((i) => (i['index'] as number) > 0 || i['type'] !== 'call'), 'the index-0 call is not listed');
    t.same(list.map((i) => i['index']), [...list.map((i) => i['index'] as number)].sort((a, b) => a - b), 'index ASC');
    const created = list.find((i) => i['created_contract'] !== null);
    t.equal(((created?.['created_contract'] as Body)['hash'] as string).toLowerCase(), f.transactions.createdByContractAddress, 'a contract created by a contract');
    const unknown = await get('/internal-transactions', { transaction_hash: `0x${'cd'.repeat(32)}` });
    t.same(unknown, { items: [], next_page_params: null }, 'unknown transaction → empty');
  });

  await t.test('state changes', async (t) => {
    const nft = items(await get(`/transactions/${f.transactions.erc721Transfer}/state-changes`));
    const tokenRows = nft.filter((i) => i['type'] === 'token');
    t.ok(tokenRows.length >= 2, 'both parties of the ERC-721 transfer');
    for (const row of tokenRows) {
      t.ok(Array.isArray(row['change']), 'ERC-721 change is an array');
      for (const c of row['change'] as Body[]) t.ok(c['direction'] === 'from' || c['direction'] === 'to');
    }
    const coin = nft.filter((i) => i['type'] === 'coin');
    t.ok(coin.length > 0 && coin.every((i) => BigInt(i['balance_after'] as string) - BigInt(i['balance_before'] as string) === BigInt(i['change'] as string)));
    t.ok(coin.some((i) => i['is_miner'] === true), 'the miner is a participant');
    const legacy = await get(`/transactions/${f.transactions.manyStateChanges}/state-changes`, { items_count: '50', state_changes: 'null' });
    const second = await get(`/transactions/${f.transactions.manyStateChanges}/state-changes`, { items_count: '50', state_changes: '50' });
    t.same(legacy['items'], second['items'], "Blockscout's cursor {items_count: 50, state_changes: null} is page 2");
  });

  await t.test('logs: four topics, decoded and undecoded', async (t) => {
    const logs = items(await get(`/transactions/${f.transactions.manyLogs}/logs`));
    t.ok(logs.every((l) => (l['topics'] as unknown[]).length === 4));
    const decoded = logs[0]?.['decoded'] as Body | null;
    t.match(decoded?.['method_call'], /^Transfer\(address indexed from, address indexed to, uint256/);
    t.equal(decoded?.['method_id'], 'ddf252ad');
    const raw = items(await get(`/transactions/${f.transactions.undecodableLog}/logs`));
    t.ok(raw.some((l) => l['decoded'] === null), 'an unknown event stays undecoded');
  });

  await t.test('blocks: detail by number and by hash, fees', async (t) => {
    const byNumber = await get(`/blocks/${f.busiestBlock}`);
    const byHash = await get(`/blocks/${byNumber['hash'] as string}`);
    t.same(byHash, byNumber, 'same object by number and by hash');
    t.equal(byNumber['transactions_count'], f.busiestBlockTransactionCount);
    const listed = items(await get('/blocks', { block_number: String(f.busiestBlock + 1) }))[0] as Body;
    t.equal(listed['height'], f.busiestBlock);
    t.equal(listed['internal_transactions_count'], null, 'lists: no internal_transactions_count');
    const bundle = chain.bundles.find((b) => b.block.number === f.busiestBlock);
    const fees = (bundle?.transactions ?? []).reduce((s, x) => s + (x.gasUsed ?? 0n) * (x.gasPrice ?? 0n), 0n);
    t.equal(byNumber['transaction_fees'], fees.toString(), 'transaction_fees = Σ gas_used × gas_price');
  });

  await t.test('numbers above 2^53 survive end to end', async (t) => {
    const id = f.bigTokenId;
    t.ok(id > 2n ** 53n);
    const transfers = await get(`/tokens/${f.tokens.erc721}/instances/${id}/transfers`);
    t.equal(((items(transfers)[0] as Body)['total'] as Body)['token_id'], id.toString(), 'token id in a transfer total');
    const r = await ex.handle({ path: `/api/v2/tokens/${f.tokens.erc721}/instances`, query: { items_count: '1' } });
    const text = toJson(r.body);
    t.match(text, new RegExp(`"unique_token":${id.toString()}[,}]`), 'unique_token is an exact JSON number');
    const next = await ex.handle({ path: `/api/v2/tokens/${f.tokens.erc721}/instances`, query: { items_count: '1', unique_token: id.toString() } });
    t.not(((bodyOf(next)['items'] as Body[])[0] as Body)['id'], id.toString(), 'and it resumes exactly after that id');
    const huge = await get(`/tokens/${f.tokens.erc1155}/instances/${f.huge1155Id}/transfers`);
    t.equal(((items(huge)[0] as Body)['total'] as Body)['token_id'], f.huge1155Id.toString());
  });

  await t.test('home page: the newest blocks and transactions, indexing status, market chart', async (t) => {
    const bare = async (path: string): Promise<Body[]> => {
      const r = await ex.handle({ path: `/api/v2${path}` });
      t.equal(r.status, 200, path);
      return JSON.parse(toJson(r.body)) as Body[];
    };
    const json = async (path: string, query: Record<string, string> = {}): Promise<Body> => {
      const r = await ex.handle({ path: `/api/v2${path}`, query });
      t.equal(r.status, 200, path);
      return JSON.parse(toJson(r.body)) as Body;
    };
    const blocks = items(await json('/blocks'));
    t.same(await bare('/main-page/blocks'), blocks.slice(0, 4), 'the first 4 items of /blocks');
    const txs = items(await json('/transactions'));
    t.same(await bare('/main-page/transactions'), txs.slice(0, 6), 'the first 6 items of /transactions');
    t.same(await json('/main-page/indexing-status'), {
      finished_indexing: true,
      finished_indexing_blocks: true,
      indexed_blocks_ratio: 1,
      indexed_internal_transactions_ratio: 1,
    });
    t.same(await json('/stats/charts/market'), { chart_data: [], available_supply: 0 }, 'no market data source');
    t.same(await json('/stats/charts/market', { apikey: 'k', key: 'x' }), { chart_data: [], available_supply: 0 }, 'apikey and key accepted');
  });

  await t.test('stats: counters, yesterday, the last 24 h and hot contracts by the clock (2023-11-15T00:05Z)', async (t) => {
    const consensus = chain.bundles.filter((b) => b.block.consensus);
    const mined = consensus.reduce((n, b) => n + b.transactions.length, 0);
    const gas = consensus.reduce((n, b) => n + b.block.gasUsed, 0n);
    const fees = consensus.reduce((n, b) => n + b.block.transactionFees, 0n);
    const coinAddresses = new Set(consensus.flatMap((b) => b.coinBalances.map((c) => c.address)));
    t.ok(consensus.every((b) => new Date(b.block.timestamp * 1000).toISOString().startsWith('2023-11-14')), 'the fixture chain lies on 2023-11-14 (UTC)');
    const stats = await get('/stats');
    t.match(stats, {
      total_blocks: String(consensus.length),
      total_transactions: String(mined + chain.pending.length),
      total_addresses: String(coinAddresses.size),
      total_gas_used: gas.toString(),
      transactions_today: String(mined),
      gas_used_today: gas.toString(),
      average_block_time: 12_000,
      coin_price: null,
      market_cap: '0',
      gas_prices_update_in: 60_000,
      gas_price_updated_at: '2023-11-15T00:05:00.000000Z',
    });
    const prices = stats['gas_prices'] as Body;
    t.ok(typeof prices['slow'] === 'number' && (prices['slow'] as number) <= (prices['average'] as number) && (prices['average'] as number) <= (prices['fast'] as number), 'gas prices: slow ≤ average ≤ fast');
    const newest = [...consensus].sort((a, b) => b.block.number - a.block.number).slice(0, 50);
    const used = newest.reduce((n, b) => n + b.block.gasUsed, 0n);
    const limit = newest.reduce((n, b) => n + b.block.gasLimit, 0n);
    t.ok(Math.abs((stats['network_utilization_percentage'] as number) - (Number(used) / Number(limit)) * 100) < 1e-6, 'utilization over the newest 50 blocks');
    // the store reads only the newest blocks' figures (listBlockFigures): the answers are exactly those of the whole records
    const records = [...consensus].map((b) => b.block).sort((a, b) => b.number - a.number);
    t.same(prices, { ...gasPrices(records) }, 'gas prices: exactly those of the newest block records');
    t.equal(stats['network_utilization_percentage'], networkUtilization(records), 'utilization: exactly that of the newest block records');
    t.equal(stats['average_block_time'], averageSpacingMs(averageWindow(records)), 'average block time: exactly that of the newest block records');
    const pro = await ex.handle({ path: '/1/api/v2/stats' });
    t.same(pro.body, stats, 'the multichain form answers the same');

    t.same(await get('/stats/charts/transactions'), { chart_data: [{ date: '2023-11-14', transactions_count: mined }] }, 'the chart: yesterday only');
    t.same(
      await get('/transactions/stats'),
      {
        transactions_count_24h: String(mined),
        pending_transactions_count: '0',
        transaction_fees_sum_24h: fees.toString(),
        transaction_fees_avg_24h: (fees / BigInt(mined)).toString(),
      },
      'the last 24 h hold the whole chain; no pending transaction was seen in the last 30 minutes',
    );

    const hot = async (query: Record<string, string>) => (await walk(ex, '/api/v2/stats/hot-smart-contracts', query)).items;
    const day = await hot({ scale: '1d' });
    t.same(await hot({ scale: '3h' }), day, '3h and 1d hold the same calls here');
    t.same(await hot({ scale: '30d', items_count: '3' }), day, '30d too, at any page size');
    t.same(await hot({ scale: '5m' }), [], 'nothing in the last 5 minutes');
    t.same(await hot({ scale: '1h' }), [], 'nor in the last hour');
    const calls = new Map<string, { n: number; gas: bigint }>();
    for (const b of consensus) {
      for (const x of b.transactions) {
        if (x.to === null) continue;
        const c = calls.get(x.to) ?? { n: 0, gas: 0n };
        calls.set(x.to, { n: c.n + 1, gas: c.gas + (x.gasUsed ?? 0n) });
      }
    }
    for (const i of day) {
      const hash = ((i['contract_address'] as Body)['hash'] as string).toLowerCase();
      const c = calls.get(hash);
      t.same([i['transactions_count'], i['total_gas_used']], [c?.n, Number(c?.gas)], `calls and gas of ${hash}`);
      const known = await ex.handle({ path: `/api/v2/addresses/${hash}`, query: {} });
      const current = known.status === 200 ? (bodyOf(known)['coin_balance'] as string | null) : null;
      t.equal(i['balance'], current, `balance of ${hash}: its current coin balance`);
    }
    t.ok(day.some((i) => typeof i['balance'] === 'string'), 'some hot contract holds a recorded balance');
    const asc = await hot({ scale: '1d', order: 'asc' });
    t.same(asc, [...day].reverse(), 'order=asc is the exact reverse');
    const first = bodyOf(await ex.handle({ path: '/api/v2/stats/hot-smart-contracts', query: { scale: '1d', sort: 'total_gas_used', items_count: '2' } }));
    t.match(first['next_page_params'], { sort: 'total_gas_used', items_count: 2, transactions_count: Number, total_gas_used: String, contract_address_hash: String }, 'next_page_params: the three keys, items_count, echoed sort');
  });

  await t.test('countdown: remaining blocks at the average block time of the window below the newest 100', async (t) => {
    const consensus = chain.bundles.map((b) => b.block).filter((b) => b.consensus && b.number > 0).sort((a, b) => b.number - a.number);
    const head = consensus[0]?.number ?? -1;
    t.equal(head, f.headBlockNumber);
    const window = consensus.slice(100, 200);
    t.ok(window.length >= 2, `a window of ${window.length} blocks`);
    const spacing = window.slice(1).map((b, i) => ((window[i]?.timestamp ?? 0) - b.timestamp) / ((window[i]?.number ?? 0) - b.number));
    t.ok(spacing.every((s) => s === spacing[0]), 'the fixture spaces its blocks evenly, so the mean is one spacing');
    const seconds = spacing[0] ?? 0;
    for (const ahead of [1, 10, 12345]) {
      const r = await ex.handle({ path: `/api/v2/blocks/${head + ahead}/countdown` });
      t.same(r.body, {
        current_block_number: String(head),
        countdown_block_number: String(head + ahead),
        remaining_blocks_count: String(ahead),
        estimated_time_in_seconds: `${ahead * seconds}.0`,
      }, `${ahead} block(s) ahead`);
      const pro = await ex.handle({ path: `/1/api/v2/blocks/${head + ahead}/countdown` });
      t.same(pro.body, { current_block: head, countdown_block: head + ahead, remaining_blocks: ahead, estimated_time_in_sec: ahead * seconds }, 'multichain: the Pro API body');
    }
    for (const past of [head, head - 1, 0]) {
      const r = await ex.handle({ path: `/api/v2/blocks/${past}/countdown` });
      t.same({ status: r.status, body: r.body }, { status: 404, body: { message: 'Block number already mined' } }, `block ${past}`);
    }
  });

  await t.test('config: what is true of this server, in both forms', async (t) => {
    const expected: Record<string, Body> = {
      '/config/backend': { chain_type: null, openapi_spec_folder_name: 'default' },
      '/config/indexer': {
        indexer_enabled: false,
        internal_transactions_fetcher_enabled: false,
        pending_transactions_fetcher_enabled: false,
        block_reward_fetcher_enabled: false,
        token_instance_retry_fetcher_enabled: false,
        token_instance_sanitize_fetcher_enabled: false,
      },
      '/config/csv-export': { limit: 10_000, async_enabled: false },
      '/config/public-metrics': { update_period_hours: 0 },
      '/config/db-background-migrations': { migrations: [] },
      '/config/smart-contracts/languages': { languages: [] },
    };
    for (const [path, body] of Object.entries(expected)) {
      for (const prefix of ['/api/v2', '/1/api/v2']) {
        const r = await ex.handle({ path: `${prefix}${path}` });
        t.same({ status: r.status, body: r.body }, { status: 200, body }, `${prefix}${path}`);
      }
    }
    const version = bodyOf(await ex.handle({ path: '/api/v2/config/backend-version' }));
    t.match(version['backend_version'], /^scoutkit \d+\.\d+\.\d+/, 'backend_version names scoutkit');
  });
  await t.test('transaction tabs: token transfers in log order with a type filter; internal transactions in trace order', async (t) => {
    const transfers = chain.bundles.flatMap((b) => b.tokenTransfers);
    const traces = chain.bundles.flatMap((b) => b.internalTransactions).filter((it) => !(it.type === 'call' && it.index === 0));
    const itemsOf = (rs: typeof transfers) => rs.reduce((n, r) => n + (r.tokenIds.length > 1 ? new Set(r.tokenIds).size : 1), 0);
    const hashes = [f.transactions.manyLogs, f.transactions.manyTokenTransfers, f.transactions.erc1155LargeBatch, f.transactions.erc1155BatchRepeatedId, f.transactions.erc404, f.transactions.erc7984];
    for (const h of hashes) {
      const mine = transfers.filter((r) => r.transactionHash === h);
      const list = (await walk(ex, `/api/v2/transactions/${h}/token-transfers`, { items_count: '5' })).items;
      t.equal(list.length, itemsOf(mine), `${h}: every transfer item`);
      t.ok(list.every((i) => i['transaction_hash'] === h), 'of that transaction only');
      const logIndexes = list.map((i) => i['log_index'] as number);
      t.same(logIndexes, [...logIndexes].sort((a, b) => a - b), 'log index ASC');
      const embedded = (await get(`/transactions/${h}`))['token_transfers'] as Body[];
      t.same(list.slice(0, 10), embedded, 'the first ten are the ones the transaction embeds');
      for (const type of TOKEN_TYPES) {
        const typed = (await walk(ex, `/api/v2/transactions/${h}/token-transfers`, { type, items_count: '5' })).items;
        t.equal(typed.length, itemsOf(mine.filter((r) => r.tokenType === type)), `${h} type=${type}: as many as the chain holds`);
        t.ok(typed.every((i) => i['token_type'] === type), `type=${type}: that type only`);
      }
    }
    const airdrop = f.transactions.manyLogs;
    const np = (await get(`/transactions/${airdrop}/token-transfers`))['next_page_params'] as Body;
    t.same(Object.keys(np).sort(), ['block_number', 'index'], 'next page: block_number and index, no items_count unless sent');
    const npTyped = (await get(`/transactions/${airdrop}/token-transfers`, { type: 'ERC-20,ERC-721', items_count: '3' }))['next_page_params'] as Body;
    t.same(Object.keys(npTyped).sort(), ['block_number', 'index', 'items_count'], 'items_count echoed when sent, type never');
    t.same(await get(`/transactions/${airdrop}/token-transfers`, { block_number: '0', index: '0' }), { items: [], next_page_params: null }, 'the {0,0} cursor is the end, as Blockscout');

    for (const h of [airdrop, f.transactions.createdByContract, f.transactions.failedInternalCall]) {
      const tab = (await walk(ex, `/api/v2/transactions/${h}/internal-transactions`, { items_count: '6' })).items;
      const list = (await walk(ex, '/api/v2/internal-transactions', { transaction_hash: h, items_count: '6' })).items;
      t.same(tab, list, `${h}: the tab lists what /internal-transactions?transaction_hash= lists`);
      t.equal(tab.length, traces.filter((it) => it.transactionHash === h).length, 'every trace but the top call');
      const idx = tab.map((i) => i['index'] as number);
      t.same(idx, [...idx].sort((a, b) => a - b), 'index ASC');
    }
    const nonZero = (await walk(ex, `/api/v2/transactions/${airdrop}/internal-transactions`, { include_zero_value: 'false' })).items;
    t.equal(nonZero.length, traces.filter((it) => it.transactionHash === airdrop && it.value !== 0n).length, 'include_zero_value=false drops zero-value traces');
    const npInternal = (await get(`/transactions/${airdrop}/internal-transactions`))['next_page_params'] as Body;
    t.same(Object.keys(npInternal).sort(), ['block_number', 'index', 'items_count', 'transaction_index']);

    const pendingHash = f.pendingHashes[0];
    t.ok(pendingHash !== undefined, 'the fixture has a pending transaction');
    if (pendingHash !== undefined) {
      for (const tab of ['token-transfers', 'internal-transactions']) {
        t.same(await get(`/transactions/${pendingHash}/${tab}`), { items: [], next_page_params: null }, `a pending transaction's ${tab}: empty`);
      }
    }
  });

  await t.test('block tabs: transactions by position with a one-kind filter; internal transactions by transaction and trace', async (t) => {
    const kinds = TRANSACTION_KINDS.filter((k) => k !== 'set_code_transaction');
    const blocksOf = [f.busiestBlock, ...[f.transactions.contractCreation, f.transactions.coinTransfer, f.transactions.createdByContract, f.transactions.erc721Transfer].map((h) => txRecord(h)?.blockNumber ?? 0)];
    for (const n of new Set(blocksOf)) {
      const inBlock = allTxs.filter((x) => x.blockNumber === n).sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      const list = (await walk(ex, `/api/v2/blocks/${n}/transactions`, { items_count: '4' })).items;
      t.same(list.map((i) => i['hash']), inBlock.map((x) => x.hash), `block ${n}: its transactions by position`);
      for (const kind of kinds) {
        const typed = (await walk(ex, `/api/v2/blocks/${n}/transactions`, { type: kind, items_count: '4' })).items;
        t.same(typed.map((i) => i['hash']), inBlock.filter((x) => x.kinds.includes(kind)).map((x) => x.hash), `block ${n} type=${kind}`);
      }
    }
    const n = f.busiestBlock;
    const hash = chain.bundles.find((b) => b.block.number === n && b.block.consensus)?.block.hash ?? '';
    t.same(await get(`/blocks/${hash}/transactions`), await get(`/blocks/${n}/transactions`), 'by hash = by number');
    const first = await get(`/blocks/${n}/transactions`, { items_count: '4', type: 'contract_call' });
    const np = first['next_page_params'] as Body | null;
    t.ok(np !== null, 'the busiest block pages at 4');
    if (np !== null) {
      t.same(Object.keys(np).sort(), ['block_number', 'index', 'items_count'], 'next page: block_number, index, items_count; type not echoed');
      const a = await get(`/blocks/${n}/transactions`, { index: String(np['index']), block_number: '0' });
      const b = await get(`/blocks/${n}/transactions`, { index: String(np['index']), block_number: String(n) });
      t.same(a, b, 'block_number in the cursor is not read (Blockscout pages by index only)');
    }

    const traces = chain.bundles.flatMap((b) => b.internalTransactions).filter((it) => !(it.type === 'call' && it.index === 0));
    const perBlock = new Map<number, number>();
    for (const it of traces) perBlock.set(it.blockNumber, (perBlock.get(it.blockNumber) ?? 0) + 1);
    for (const [m, count] of [...perBlock.entries()].sort((x, y) => y[1] - x[1]).slice(0, 4)) {
      const list = (await walk(ex, `/api/v2/blocks/${m}/internal-transactions`, { items_count: '9' })).items;
      t.equal(list.length, count, `block ${m}: every trace but the top calls`);
      t.ok(list.every((i) => i['block_number'] === m), 'of that block only');
      const keys = list.map((i) => [i['transaction_index'] as number, i['index'] as number]);
      const sorted = [...keys].sort((x, y) => (x[0] as number) - (y[0] as number) || (x[1] as number) - (y[1] as number));
      t.same(keys, sorted, '(transaction_index, index) ASC');
      const ignored = (await walk(ex, `/api/v2/blocks/${m}/internal-transactions`, { items_count: '9', internal_type: 'create', call_type: 'staticcall' })).items;
      t.same(ignored, list, 'internal_type and call_type are accepted and not applied, as in Blockscout');
      const nonZero = (await walk(ex, `/api/v2/blocks/${m}/internal-transactions`, { include_zero_value: 'false' })).items;
      t.equal(nonZero.length, traces.filter((it) => it.blockNumber === m && it.value !== 0n).length, 'include_zero_value=false');
    }
    const [busiest] = [...perBlock.entries()].sort((x, y) => y[1] - x[1])[0] ?? [0];
    const npi = (await get(`/blocks/${busiest}/internal-transactions`, { items_count: '5' }))['next_page_params'] as Body;
    t.same(Object.keys(npi).sort(), ['index', 'items_count', 'transaction_index'], 'next page: no block_number, as Blockscout');
    const empty = await get('/blocks/0/internal-transactions');
    t.same(empty, { items: [], next_page_params: null }, 'a block without traces: empty');
  });
  await t.test('withdrawals: item shapes per list, values from the records, counters, block and address fields', async (t) => {
    const w = f.withdrawals;
    const rows = chain.bundles.flatMap((b) => b.withdrawals ?? []).sort((x, y) => y.index - x.index);
    const top = rows[0];
    if (top === undefined) throw new Error('fixture: no withdrawals');
    const all = (await walk(ex, '/api/v2/withdrawals', { items_count: '50' })).items;
    t.same(
      all.map((i) => [i['index'], i['validator_index'], i['block_number'], i['amount'], (i['receiver'] as Body)['hash'], i['timestamp']]),
      rows.map((r) => [r.index, r.validatorIndex, r.blockNumber, r.amount.toString(), checksum(r.address), new Date(r.timestamp * 1000).toISOString().replace('Z', '000Z')]),
      '/withdrawals: every record, index DESC, wei strings, checksummed receivers, block times',
    );
    t.same(Object.keys(all[0] as Body).sort(), ['amount', 'block_number', 'index', 'receiver', 'timestamp', 'validator_index']);
    const first = await get('/withdrawals', { items_count: '3' });
    t.same(first['next_page_params'], { index: (rows[2] ?? top).index, items_count: 3 }, 'next page: {index, items_count}');
    t.same(await get('/withdrawals', { index: '0' }), { items: [], next_page_params: null }, 'index=0 → empty, as Blockscout');
    t.same(items(await get('/withdrawals', { index: String(top.index), items_count: '1' })).map((i) => i['index']), [top.index - 1], 'strictly below the index sent');

    const mine = (await walk(ex, `/api/v2/addresses/${w.busiestRecipient}/withdrawals`, { items_count: '50' })).items;
    const theirs = rows.filter((r) => r.address === w.busiestRecipient);
    t.same(mine.map((i) => i['index']), theirs.map((r) => r.index), 'address list: that recipient only');
    t.same(Object.keys(mine[0] as Body).sort(), ['amount', 'block_number', 'index', 'timestamp', 'validator_index'], 'address list: no receiver');

    const ofBlock = (await walk(ex, `/api/v2/blocks/${w.busiestBlock}/withdrawals`, { items_count: '5' })).items;
    t.equal(ofBlock.length, w.busiestBlockCount);
    t.same(Object.keys(ofBlock[0] as Body).sort(), ['amount', 'index', 'receiver', 'validator_index'], 'block list: no block_number, no timestamp');
    t.same(await get(`/blocks/${w.blockWithout}/withdrawals`), { items: [], next_page_params: null }, 'a block without withdrawals');

    t.same(await get('/withdrawals/counters'), { withdrawals_count: String(w.count), withdrawals_sum: w.sum.toString() }, 'counters: the stored count and sum');
    t.equal((await get(`/blocks/${w.busiestBlock}`))['withdrawals_count'], w.busiestBlockCount, 'block detail: withdrawals_count');
    t.equal((await get(`/blocks/${w.blockWithout}`))['withdrawals_count'], 0);
    t.equal(items(await get('/blocks', { items_count: '1' }))[0]?.['withdrawals_count'], null, 'block lists: null');

    const payout = await get(`/addresses/${w.busiestRecipient}`);
    t.equal(payout['has_beacon_chain_withdrawals'], true);
    t.equal(payout['coin_balance'], theirs.reduce((s, r) => s + r.amount, 0n).toString(), 'the coin balance is the sum of its withdrawals');
    t.equal((await get(`/addresses/${f.eoas.alice}`))['has_beacon_chain_withdrawals'], false);
    t.equal((await get(`/addresses/${w.busiestRecipient}/tabs-counters`))['withdrawals_count'], Math.min(theirs.length, 51), 'tabs: capped at 51');
    const few = w.recipients[4] ?? w.busiestRecipient;
    t.equal((await get(`/addresses/${few}/tabs-counters`))['withdrawals_count'], rows.filter((r) => r.address === few).length);

    const pro = await ex.handle({ path: `/1/api/v2/blocks/${w.busiestBlock}/withdrawals`, query: { items_count: '5' } });
    t.same(bodyOf(pro), await get(`/blocks/${w.busiestBlock}/withdrawals`, { items_count: '5' }), 'the multichain form answers the same');
  });

  await t.test('raw trace: the Parity-style traces of the kept frames', async (t) => {
    const frames = chain.bundles.flatMap((b) => b.traceFrames ?? []);
    const own = (hash: string) => frames.filter((x) => x.transactionHash === hash).sort((a, b) => a.index - b.index);
    const hex = (n: bigint | null) => `0x${(n ?? 0n).toString(16)}`;
    const rawOf = async (hash: string): Promise<Body[]> => (await get(`/transactions/${hash}/raw-trace`)) as unknown as Body[];
    const shape = (traces: Body[]) => traces.map((x) => [x['type'], (x['action'] as Body)['callType'] ?? null, x['traceAddress'], x['subtraces'], x['error'] ?? null]);

    // a call whose second inner call reverted: the top call succeeds, its failed child carries error instead of result
    const failed = await rawOf(f.transactions.failedInternalCall);
    t.same(shape(failed), [
      ['call', 'call', [], 2, null],
      ['call', 'call', [0], 0, null],
      ['call', 'call', [1], 0, 'execution reverted'],
    ], 'failed internal call: three calls, the second child failed');
    const [top, paid, refused] = own(f.transactions.failedInternalCall);
    t.same(failed[0], {
      action: { callType: 'call', from: top?.from, gas: hex(top?.gas ?? null), input: top?.input, to: top?.to, value: '0x0' },
      result: { gasUsed: hex(top?.gasUsed ?? null), output: '0x' },
      subtraces: 2,
      traceAddress: [],
      type: 'call',
    }, 'the top call: its action and result');
    t.equal((failed[1]?.['action'] as Body)['value'], '0x2386f26fc10000', 'the paid child moves 0.01 ether, in hex');
    t.equal((failed[1]?.['action'] as Body)['from'], paid?.from);
    t.notOk('result' in (failed[2] ?? {}), 'the failed child has no result');
    t.equal((failed[2]?.['action'] as Body)['to'], refused?.to);

    // a factory call creating ten contracts: ten creates below one call
    const created = await rawOf(f.transactions.createdByContract);
    const createFrames = own(f.transactions.createdByContract).slice(1);
    t.same(shape(created), [['call', 'call', [], 10, null], ...createFrames.map((_x, i) => ['create', null, [i], 0, null])], 'factory: one call, ten creates');
    t.same(created.slice(1).map((x) => x['action']), createFrames.map((x) => ({ from: x.from, gas: hex(x.gas), init: x.input, value: '0x0' })), 'creates: from, gas, init code, value');
    t.same(created.slice(1).map((x) => x['result']), createFrames.map((x) => ({ address: x.to, code: x.output, gasUsed: hex(x.gasUsed) })), 'creates: the created address, its code, gas used');
    t.equal((created[1]?.['result'] as Body)['address'], f.transactions.createdByContractAddress, 'the first create made the fixture\'s contract');

    // a reverted transaction: one failed call
    const reverted = await rawOf(f.transactions.reverted);
    t.same(shape(reverted), [['call', 'call', [], 0, 'execution reverted']], 'reverted: one failed call');
    t.same(Object.keys(reverted[0] ?? {}), ['action', 'error', 'subtraces', 'traceAddress', 'type'], "Blockscout's key order, no result");

    // a plain coin transfer: one call with the transaction's value
    const coin = await rawOf(f.transactions.coinTransfer);
    const transfer = txRecord(f.transactions.coinTransfer);
    t.same(coin, [{
      action: { callType: 'call', from: transfer?.from, gas: hex(own(f.transactions.coinTransfer)[0]?.gas ?? null), input: '0x', to: transfer?.to, value: hex(transfer?.value ?? null) },
      result: { gasUsed: '0x0', output: '0x' },
      subtraces: 0,
      traceAddress: [],
      type: 'call',
    }], 'coin transfer: one call');

    t.same(await get(`/transactions/${f.pendingHashes[0] ?? ''}/raw-trace`), [], 'pending: []');
    const pro = await ex.handle({ path: `/1/api/v2/transactions/${f.transactions.reverted}/raw-trace` });
    t.same(bodyOf(pro), reverted, 'the multichain form answers the same');
  });

  await t.test('transaction preview: status, timestamp, method, the two parties', async (t) => {
    const party = (hash: string, name: string) => ({ hash: toChecksum(hash), name, ens_domain_name: null, metadata: null });
    const tx = f.transactions;
    t.same(await get(`/transactions/${tx.coinTransfer}/preview`), {
      status: 'ok',
      timestamp: '2023-11-14T22:21:20.000000Z',
      method: null,
      from: party(f.eoas.bob, 'bob'),
      to: party(f.eoas.carol, 'carol'),
    }, 'a coin transfer between EOAs: no method');
    const reverted = { status: 'error', timestamp: '2023-11-14T22:20:20.000000Z', from: party(f.eoas.frank, 'frank'), to: party(f.tokens.erc20, 'USD Fixture') };
    t.same(await get(`/transactions/${tx.reverted}/preview`), { ...reverted, method: '0x23b872dd' }, 'a failed token call: status error, the selector');
    t.same(await get(`/transactions/${tx.reverted}/preview`, { decode_input: 'true' }), { ...reverted, method: 'transferFrom' }, 'decode_input: the decoded name');
    t.same(await get(`/transactions/${tx.reverted}/preview`, { decode_input: 'false', preload_ens: 'true', preload_metadata: 'true' }), { ...reverted, method: '0x23b872dd' }, 'no ENS, no metadata service: nulls');
    t.same(await get(`/transactions/${tx.failedInternalCall}/preview`, { decode_input: 'true' }), {
      status: 'ok',
      timestamp: '2023-11-14T22:18:08.000000Z',
      method: '0xb61d27f6',
      from: party(f.eoas.alice, 'alice'),
      to: party(f.contracts.hotWallet, 'HotWallet'),
    }, 'an input that does not decode: its selector');
    t.same(await get(`/transactions/${tx.contractCreation}/preview`), {
      status: 'ok',
      timestamp: '2023-11-14T22:13:32.000000Z',
      method: null,
      from: party(f.eoas.deployer, 'deployer'),
      to: null,
    }, 'a contract creation: to null');
    const pending = await get(`/transactions/${f.pendingHashes[0] ?? ''}/preview`);
    t.same([pending['status'], pending['timestamp'], pending['method']], [null, null, null], 'pending: no status, no timestamp');
    const pro = await ex.handle({ path: `/1/api/v2/transactions/${tx.reverted}/preview` });
    t.same(bodyOf(pro), { ...reverted, method: '0x23b872dd' }, 'the multichain form answers the same');
  });

  await t.test('FHE operations: none indexed → no items, zero metrics; the transaction says 0 too', async (t) => {
    const none = { items: [], total_hcu: 0, max_depth_hcu: 0, operation_count: 0 };
    for (const hash of [f.transactions.failedInternalCall, f.transactions.coinTransfer, f.pendingHashes[0] ?? '']) {
      t.same(await get(`/transactions/${hash}/fhe-operations`), none, hash);
      t.equal((await get(`/transactions/${hash}`))['fhe_operations_count'], 0);
    }
  });

  await t.test('secondary coin market chart: no market source, no secondary coin → empty', async (t) => {
    t.same(await get('/stats/charts/secondary-coin-market'), { chart_data: [] });
    t.same(bodyOf(await ex.handle({ path: '/1/api/v2/stats/charts/secondary-coin-market' })), { chart_data: [] }, 'multichain');
  });

  await t.test('smart contracts: list order, q, filter, counters, detail, audit reports', async (t) => {
    const sc = f.smartContracts;
    const all = await walk(ex, '/api/v2/smart-contracts', { items_count: '50' });
    t.same(all.items.map((i) => String((i['address'] as Body)['hash']).toLowerCase()), sc.newestFirst, 'every creation, block DESC then address DESC');
    t.ok(all.items.every((i) => i['compiler_version'] === null && i['language'] === null && i['certified'] === false), 'unverified items');
    t.ok(all.items.every((i) => (i['address'] as Body)['is_contract'] === true), 'the address object says contract');
    const first = await get('/smart-contracts', { items_count: '2', q: 'b00000', sort: 'balance', order: 'asc' });
    t.same(Object.keys(first['next_page_params'] as Body).sort(), ['block_number', 'hash', 'items_count', 'order', 'q', 'sort'], 'cursor keys, q/sort/order echoed');
    const upper = await get('/smart-contracts', { q: `  ${sc.byTransaction.toUpperCase().replace('0X', '0x')} ` });
    t.same(items(upper).map((i) => String((i['address'] as Body)['hash']).toLowerCase()), [sc.byTransaction], 'q: the address in any case, trimmed');
    t.same(await get('/smart-contracts', { q: 'not-hex' }), { items: [], next_page_params: null }, 'q with no hex address text: none');
    t.same(await get('/smart-contracts', { filter: 'vyper' }), { items: [], next_page_params: null }, 'a language filter: none are verified');
    const everything = await get('/smart-contracts', { q: '' });
    t.equal(items(everything).length, Math.min(50, sc.count), 'q empty: no filter');

    t.same(await get('/smart-contracts/counters'), {
      smart_contracts: String(sc.count),
      new_smart_contracts_24h: '0',
      verified_smart_contracts: '0',
      new_verified_smart_contracts_24h: '0',
    }, 'counters (the fixture blocks are older than a day)');

    const codes = chain.bundles.flatMap((b) => b.contractCodes ?? []);
    for (const address of [sc.byTransaction, sc.byFrame]) {
      const record = codes.find((c) => c.address === address);
      const body = await get(`/smart-contracts/${address}`);
      t.same(body, {
        proxy_type: null,
        implementations: [],
        conflicting_implementations: [],
        deployed_bytecode: record?.deployedBytecode,
        creation_bytecode: record?.creationBytecode,
        creation_status: 'success',
        is_verified: false,
      }, `${address}: the unverified shape`);
    }
    t.equal((await get(`/smart-contracts/${sc.byTransaction}`))['creation_bytecode'], txRecord(f.transactions.contractCreation)?.input, 'created by a transaction: its input');
    t.same(await get(`/smart-contracts/${sc.byFrame}/audit-reports`), { items: [], next_page_params: null }, 'no audit reports');
  });

  await t.test('tokens list and search: order, filters, exact lookups, redirects', async (t) => {
    const latestTokens = [...new Map(chain.bundles.flatMap((b) => b.tokens).map((x) => [x.address, x])).values()];
    const all = (await walk(ex, '/api/v2/tokens/', { items_count: '13' })).items;
    t.same((await walk(ex, '/api/v2/tokens', { items_count: '13' })).items, all, '/tokens and /tokens/ answer the same');
    t.equal(all.length, latestTokens.length, 'every token once');
    const order = all.map((i) => [BigInt(i['holders_count'] as string), i['name'] as string | null, (i['address_hash'] as string).toLowerCase()] as const);
    const broken = order.findIndex(([h, n, a], k) => {
      if (k === 0) return false;
      const [ph, pn, pa] = order[k - 1] as (typeof order)[number];
      if (ph !== h) return ph < h;
      if (pn !== n) return pn === null || (n !== null && pn > n);
      return pa > a;
    });
    t.equal(broken, -1, 'holders DESC, then name ASC (null last), then address ASC');
    const reversed = (await walk(ex, '/api/v2/tokens/', { sort: 'holders_count', order: 'asc', items_count: '13' })).items;
    t.same(reversed, [...all].reverse(), 'sort=holders_count&order=asc: the exact reverse');
    t.same((await walk(ex, '/api/v2/tokens/', { sort: 'fiat_value', order: 'asc', items_count: '13' })).items, all, 'sort=fiat_value: null for every token, the default order');
    const usd = items(await get('/tokens/', { q: ' usdX ' }));
    t.same(usd.map((i) => i['symbol']), ['USDX'], 'q: trimmed, case-insensitive, name or symbol prefix');
    t.same(items(await get('/tokens/', { q: 'fixture punks' })).map((i) => i['symbol']), ['PUNK'], 'q: a whole name');
    t.same(items(await get('/tokens/', { q: '-- ' })), items(await get('/tokens/')), 'q without a letter or digit: no filter');
    t.same(items(await get('/tokens/', { q: f.tokens.erc721.toUpperCase().replace('0X', '0x') })).map((i) => i['symbol']), ['PUNK'], 'q: an address hash → that token');
    t.same(items(await get('/tokens/', { q: f.tokens.erc721, type: 'ERC-20' })), [], 'and the type filter still applies');
    const nfts = (await walk(ex, '/api/v2/tokens/', { type: '[erc-721,ERC-1155]', items_count: '9' })).items;
    t.equal(nfts.length, latestTokens.filter((x) => x.type === 'ERC-721' || x.type === 'ERC-1155').length, 'type: a list, any case, brackets');
    const first = await get('/tokens/', { items_count: '2' });
    t.match(first['next_page_params'], { contract_address_hash: String, fiat_value: null, holders_count: Number, is_name_null: false, market_cap: null, name: String, items_count: 2 }, "Blockscout's paging keys");
    const { market_cap: _mc, ...withoutMarketCap } = first['next_page_params'] as Record<string, unknown>;
    t.same(items(await get('/tokens/', { ...(Object.fromEntries(Object.entries(withoutMarketCap).map(([k, v]) => [k, String(v)]))) })), items(await get('/tokens/', { items_count: '2' })), 'without market_cap the cursor is ignored (first page), as Blockscout');

    const bulk = (await walk(ex, '/api/v2/search', { q: 'Bulk', items_count: '40' })).items;
    const types = bulk.map((i) => i['type']);
    t.equal(types.lastIndexOf('token') < types.indexOf('contract'), true, 'tokens (priority 2) before contracts (priority 0)');
    t.ok(bulk.every((i) => (i['type'] === 'token' ? i['priority'] === 2 : i['priority'] === 0)), 'priorities');
    const contractNames = bulk.filter((i) => i['type'] === 'contract').map((i) => (i['name'] as string).toLowerCase());
    t.same(contractNames, [...contractNames].sort(), 'contracts by lower-cased name');
    const s = await get('/search', { q: 'bulk', items_count: '3' });
    t.match(s['next_page_params'], { next_page_params_type: 'search', q: 'bulk', 'token[holder_count]': String, 'token[address_hash]': String, 'token[is_name_null]': 'false', items_count: '3' }, 'flat bracket keys, string values');
    t.same(items(await get('/search', { q: '12' })).map((i) => [i['type'], i['block_number']]), [['block', 12]], 'a short number: its block only');
    const tx = items(await get('/search', { q: ` ${f.transactions.eip1559.toUpperCase().replace('0X', '0x')} ` }));
    t.same(tx.map((i) => [i['type'], i['transaction_hash']]), [['transaction', f.transactions.eip1559]], 'a transaction hash, trimmed, any case');
    t.same(items(await get('/search', { q: f.headBlockHash })).map((i) => i['type']), ['block'], 'a block hash');
    const usdx = items(await get('/search', { q: f.tokens.erc20 }));
    t.same(usdx.map((i) => i['type']), ['token', 'address'], 'an address hash: its token, then its address');
    t.same(await get('/search', { q: f.tokens.erc20, items_count: '1' }), { items: usdx, next_page_params: null }, 'exact matches are never split across pages');
    t.same(items(await get('/search', { q: f.unknownAddress })), [], 'an unknown address: nothing');
    t.same(items(await get('/search', { q: 'ab' })), [], 'text under 3 characters: nothing');
    t.same(await get('/search', {}), { items: [], next_page_params: null }, 'no q: an empty page');

    const quick = (await ex.handle({ path: '/api/v2/search/quick', query: { q: 'bul' } })).body as unknown as Body[];
    t.equal(quick.length, 50, 'quick: at most 50');
    t.equal(quick.filter((i) => i['type'] === 'token').length, 25, 'shared evenly between tokens and contracts');
    t.same((await ex.handle({ path: '/api/v2/search/quick', query: { q: ' a ' } })).body, [], 'quick: under 3 bytes → []');

    const redirect = async (q: string) => (await ex.handle({ path: '/api/v2/search/check-redirect', query: { q } })).body;
    t.same(await redirect(f.unknownAddress.slice(2)), { redirect: true, type: 'address', parameter: toChecksum(f.unknownAddress) }, 'an address, even unknown, without 0x');
    t.same(await redirect(f.headBlockHash), { redirect: true, type: 'block', parameter: f.headBlockHash }, 'a block hash');
    t.same(await redirect(String(f.headBlockNumber)), { redirect: true, type: 'block', parameter: f.headBlockHash }, 'a number: the block hash');
    t.same(await redirect(String(f.headBlockNumber + 1)), { redirect: false, type: null, parameter: null }, 'beyond the head: none');
    t.same(await redirect('usdx'), { redirect: false, type: null, parameter: null }, 'text: none');
  });
}
