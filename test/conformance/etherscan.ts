/**
 * The Etherscan-compatible dialect over every store: every registered action answers a good
 * request (values checked against API v2 answers and the fixture), every list action pages by
 * `page`/`offset` with each row once (the pages, at two sizes, put together are exactly the
 * one-page answer; `sort=asc` is its reverse; `startblock`/`endblock` bound it), bad parameters
 * get Etherscan-style error bodies and never a 5xx, and the legacy paths validate against the
 * official 11.2.7 document (tag `legacy`).
 */
import t from 'tap';
import type { Test } from 'tap';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { createExplorer, ETHERSCAN_ACTIONS, LEGACY_PATHS, toJson } from '../../lib/index.ts';
import type { Body, Loaded } from '../support/explorer.ts';
import { loadExplorer, okGetter, walk } from '../support/explorer.ts';
import type { StoreName } from '../support/stores.ts';
import { storeFactories } from '../support/stores.ts';
import { missingSpecFiles, officialSpecs, toJsonSchema } from '../support/openapi.ts';

type Query = Record<string, string>;
interface Answer {
  readonly status: number;
  readonly body: Body;
}
type Row = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Run the suite over one named store when SCOUTKIT_STORES selects it (one test file per store, run in parallel). */
export async function runEtherscanOn(name: StoreName): Promise<void> {
  const factory = (await storeFactories()).find((f) => f.name === name);
  if (factory === undefined) {
    t.comment(`${name}: not selected by SCOUTKIT_STORES, or unreachable off CI`);
    t.pass(`${name}: nothing to run`);
    return;
  }
  const loaded = await loadExplorer(() => factory.open());
  t.teardown(async () => loaded.store.close?.());
  await t.test(`${name}: the Etherscan-compatible dialect`, (t) => etherscanSuite(t, loaded));
}

export async function etherscanSuite(t: Test, { explorer, chain, store }: Loaded): Promise<void> {
  const f = chain.facts;
  const { alice, bob } = f.eoas;
  const get = async (query: Query, path = '/api'): Promise<Answer> => {
    const r = await explorer.handle({ path, query });
    return { status: r.status, body: JSON.parse(toJson(r.body)) as Body };
  };
  const okRows = async (query: Query): Promise<Row[]> => {
    const a = await get(query);
    if (a.status !== 200 || a.body['status'] !== '1') throw new Error(`${JSON.stringify(query)} → ${a.status} ${JSON.stringify(a.body)}`);
    return a.body['result'] as Row[];
  };
  const v2 = okGetter(explorer);
  const head = f.headBlockNumber;
  const headBlock = await v2(`/blocks/${head}`);
  const headTime = Math.floor(Date.parse(headBlock['timestamp'] as string) / 1000);

  // ---- every action answers ------------------------------------------------------------------
  const GOOD: Readonly<Record<string, Query>> = {
    'account/balance': { address: alice },
    'account/balancemulti': { address: `${alice},${bob}` },
    'account/eth_get_balance': { address: alice },
    'account/txlist': { address: alice },
    'account/txlistinternal': { address: f.hotAddress },
    'account/tokentx': { address: alice },
    'account/tokennfttx': { address: alice },
    'account/token1155tx': { contractaddress: f.tokens.erc1155 },
    'account/token404tx': { contractaddress: f.tokens.erc404 },
    'account/token7984tx': { contractaddress: f.tokens.erc7984 },
    'account/tokenbalance': { address: alice, contractaddress: f.tokens.erc20 },
    'account/tokenlist': { address: alice },
    'account/getminedblocks': { address: f.miner },
    'account/pendingtxlist': { address: alice },
    'block/getblockreward': { blockno: '5' },
    'block/getblocknobytime': { timestamp: String(headTime), closest: 'before' },
    'block/getblockcountdown': { blockno: String(head + 100) },
    'block/eth_block_number': {},
    'logs/getlogs': { fromBlock: '0', toBlock: 'latest', address: f.tokens.erc20 },
    'transaction/gettxinfo': { txhash: f.transactions.eip1559 },
    'transaction/gettxreceiptstatus': { txhash: f.transactions.reverted },
    'transaction/getstatus': { txhash: f.transactions.reverted },
    'token/gettoken': { contractaddress: f.tokens.erc20 },
    'token/gettokenholders': { contractaddress: f.tokens.erc20 },
    'stats/tokensupply': { contractaddress: f.tokens.erc20 },
    'stats/ethsupply': {},
    'stats/coinsupply': {},
    'stats/ethsupplyexchange': {},
    'stats/coinprice': {},
    'stats/ethprice': {},
    'stats/totalfees': { date: new Date(headTime * 1000).toISOString().slice(0, 10) },
    'contract/getabi': { address: f.tokens.erc20 },
    'contract/getsourcecode': { address: f.tokens.erc20 },
    'contract/getcontractcreation': { contractaddresses: `${f.transactions.contractCreationAddress},${f.transactions.createdByContractAddress}` },
    'contract/listcontracts': {},
    'contract/verifysourcecode': { codeformat: 'solidity-standard-json-input', contractaddress: f.tokens.erc20, sourceCode: '{}', contractname: 'src/T.sol:T', compilerversion: 'v0.8.24+commit.e11b9ed9' },
    'contract/checkverifystatus': { guid: `${f.tokens.erc20.slice(2)}18c0a7f3b00` },
    'contract/verifyproxycontract': { address: f.tokens.erc20 },
    'contract/checkproxyverification': { guid: `${f.tokens.erc20.slice(2)}18c0a7f3b00` },
    'contract/verify_vyper_contract': { addressHash: f.tokens.erc20, name: 'T', compilerVersion: 'v0.3.10', contractSourceCode: '# @version 0.3.10' },
    'proxy/eth_blocknumber': {},
    'proxy/eth_chainid': {},
    'proxy/eth_gasprice': {},
    'proxy/eth_getblockbynumber': { tag: '0x5', boolean: 'true' },
    'proxy/eth_gettransactionbyhash': { txhash: f.transactions.eip1559 },
    'proxy/eth_gettransactionreceipt': { txhash: f.transactions.eip1559 },
    'proxy/eth_getbalance': { address: alice, tag: 'latest' },
    'proxy/eth_gettransactioncount': { address: alice, tag: 'latest' },
    'proxy/eth_call': { to: f.tokens.erc20, data: '0x18160ddd' },
    'proxy/eth_estimategas': { to: f.tokens.erc20, data: '0x18160ddd' },
    'proxy/eth_getcode': { address: f.tokens.erc20 },
    'proxy/eth_getstorageat': { address: f.tokens.erc20, position: '0x0' },
    'proxy/eth_sendrawtransaction': { hex: '0x1234' },
  };
  const Q = (name: string): Query => {
    const [module, action] = name.split('/') as [string, string];
    return { module, action, ...GOOD[name] };
  };
  /** actions that answer status "0" by design here (nothing verified) */
  const REFUSING = new Set(['contract/getabi']);
  /** refusals as Blockscout words them, the text as message and result: no verifier here, the proxy not verified */
  const REFUSING_WITH_TEXT = new Set(['contract/verifysourcecode', 'contract/verifyproxycontract', 'contract/verify_vyper_contract']);
  /** actions whose body is a bare JSON number, as Blockscout's (no envelope) */
  const BARE = new Set(['stats/coinsupply']);
  /** proxy methods forwarded to a node (none configured here): a JSON-RPC error */
  const FORWARDED = new Set(['eth_call', 'eth_estimategas', 'eth_getcode', 'eth_getstorageat', 'eth_sendrawtransaction']);

  await t.test('every registered action answers', async (t) => {
    t.same(Object.keys(GOOD).sort(), ETHERSCAN_ACTIONS.map((a) => `${a.module}/${a.action}`).sort(), 'a case for every action');
    for (const [name, query] of Object.entries(GOOD)) {
      const [module, action] = name.split('/') as [string, string];
      // module case-insensitive, action lower-cased: send them upper-case
      const a = await get({ module: module.toUpperCase(), action: action.toUpperCase(), ...query });
      t.equal(a.status, 200, `${name}: HTTP 200`);
      if (module === 'proxy' || name === 'block/eth_block_number' || name === 'account/eth_get_balance') {
        t.equal(a.body['jsonrpc'], '2.0', `${name}: a JSON-RPC envelope`);
        if (FORWARDED.has(action)) t.equal((a.body['error'] as Body | undefined)?.['code'], -32000, `${name}: no node → -32000`);
        else t.ok('result' in a.body && a.body['result'] !== null, `${name}: a result`);
      } else if (BARE.has(name)) {
        t.equal(typeof a.body, 'number', `${name}: a bare number`);
      } else if (REFUSING.has(name)) {
        t.same([a.body['status'], a.body['message']], ['0', 'NOTOK'], `${name}: status 0, NOTOK`);
      } else if (REFUSING_WITH_TEXT.has(name)) {
        t.same([a.body['status'], typeof a.body['result'], a.body['message']], ['0', 'string', a.body['result']], `${name}: status 0, the text as message and result`);
      } else {
        t.equal(a.body['status'], '1', `${name}: status 1`);
        t.equal(a.body['message'], 'OK', `${name}: OK`);
      }
    }
  });

  await t.test('values agree with API v2 and the fixture', async (t) => {
    const aliceV2 = await v2(`/addresses/${alice}`);
    t.equal((await get(Q('account/balance'))).body['result'], aliceV2['coin_balance'], 'balance = v2 coin_balance');
    const multi = (await okRows(Q('account/balancemulti'))) as Row[];
    t.same(multi.map((r) => r['account']), [alice, bob], 'balancemulti: one row per address, in order');
    t.equal(multi[0]?.['balance'], aliceV2['coin_balance'], 'balancemulti: the same balance');
    t.same((await get({ module: 'account', action: 'balance', address: f.unknownAddress })).body['result'], '0', 'an unknown address: "0"');

    const txs = await okRows({ module: 'account', action: 'txlist', address: alice });
    const v2txs = await walk(explorer, `/api/v2/addresses/${alice}/transactions`);
    t.same(txs.map((r) => r['hash']), v2txs.items.filter((i) => i['block_number'] !== null).map((i) => i['hash']), 'txlist: the same validated transactions as v2, in the same order');
    const creation = (await okRows({ module: 'account', action: 'txlist', address: f.eoas.deployer })).find((r) => r['hash'] === f.transactions.contractCreation);
    t.same([creation?.['to'], creation?.['contractAddress']], ['', f.transactions.contractCreationAddress], 'a creation: to "" and contractAddress');
    const failed = (await okRows({ module: 'account', action: 'txlist', address: alice })).find((r) => r['isError'] === '1');
    if (failed !== undefined) t.equal(failed['txreceipt_status'], '0', 'a failed transaction: txreceipt_status 0');
    const outgoing = await okRows({ module: 'account', action: 'txlist', address: alice, filter_by: 'from' });
    t.ok(outgoing.length > 0 && outgoing.every((r) => r['from'] === alice), 'filter_by=from: sent only');
    const incoming = await okRows({ module: 'account', action: 'txlist', address: alice, filter_by: 'to' });
    t.ok(incoming.every((r) => r['to'] === alice || r['contractAddress'] === alice), 'filter_by=to: received only');
    const times = txs.map((r) => Number(r['timeStamp']));
    const [t0, t1] = [Math.min(...times) + 100, Math.max(...times) - 100];
    const timed = await okRows({ module: 'account', action: 'txlist', address: alice, start_timestamp: String(t0), end_timestamp: String(t1) });
    t.same(timed, txs.filter((r) => Number(r['timeStamp']) >= t0 && Number(r['timeStamp']) <= t1), 'start_timestamp/end_timestamp bound txlist by time');
    t.same((await get({ module: 'account', action: 'txlist', address: alice, start_timestamp: String(headTime + 1) })).body['message'], 'No transactions found', 'after the head: none');
    t.equal(outgoing.length + incoming.length - incoming.filter((r) => r['from'] === alice).length, txs.length, 'from ∪ to = all');
    for (const r of txs.slice(0, 5)) {
      const tx = await v2(`/transactions/${r['hash'] as string}`);
      t.same(
        [r['blockNumber'], r['value'], r['gasUsed'], r['nonce'], r['confirmations']],
        [String(tx['block_number']), tx['value'], tx['gas_used'], String(tx['nonce']), String(head - (tx['block_number'] as number))],
        `txlist row ${r['hash'] as string} = v2 transaction`,
      );
    }
    // cumulativeGasUsed: the block's gas up to the transaction
    const sample = txs[0] as Row;
    const blockTxs = await walk(explorer, `/api/v2/blocks/${sample['blockNumber'] as string}/transactions`);
    const upTo = blockTxs.items.filter((i) => (i['position'] as number) <= Number(sample['transactionIndex'])).reduce((s, i) => s + BigInt(i['gas_used'] as string), 0n);
    t.equal(sample['cumulativeGasUsed'], upTo.toString(), 'cumulativeGasUsed = Σ gas of the block up to the transaction');

    const mined = await okRows({ module: 'account', action: 'getminedblocks', address: f.miner });
    t.equal(mined.length, f.minerBlockCount, 'getminedblocks: every block of the miner');
    t.match(mined[0]?.['timeStamp'], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.000000Z$/, "timeStamp: Blockscout's DateTime string");

    const holders = await okRows({ module: 'token', action: 'getTokenHolders', contractaddress: f.tokens.erc20, offset: '10000' });
    const v2holders = await walk(explorer, `/api/v2/tokens/${f.tokens.erc20}/holders`);
    t.same(holders.map((h) => [h['address'], h['value']]), v2holders.items.map((i) => [((i['address'] as Body)['hash'] as string).toLowerCase(), i['value']]), 'getTokenHolders = v2 holders');
    t.equal((await okRows({ module: 'token', action: 'getTokenHolders', contractaddress: f.tokens.erc20 })).length, Math.min(10, holders.length), 'getTokenHolders: 10 by default');

    const token = await v2(`/tokens/${f.tokens.erc20}`);
    const got = (await get(Q('token/gettoken'))).body['result'] as Body;
    t.same([got['name'], got['symbol'], got['totalSupply'], got['decimals'], got['type']], [token['name'], token['symbol'], token['total_supply'], token['decimals'], token['type']], 'getToken = v2 token');
    t.equal((await get(Q('stats/tokensupply'))).body['result'], token['total_supply'], 'tokensupply = total_supply');
    // the coin supply: Σ of the positive current balances (every top account), less the zero address's
    const accounts = await walk(explorer, '/api/v2/addresses');
    const balanceSum = accounts.items.reduce((sum, i) => sum + BigInt(i['coin_balance'] as string), 0n);
    t.ok(balanceSum > 0n, 'the fixture holds coins');
    t.same((await get(Q('stats/ethsupply'))).body, { status: '1', message: 'OK', result: balanceSum.toString() }, 'ethsupply = Σ of the top accounts’ balances, wei');
    const zero = accounts.items.find((i) => (i['hash'] as string) === '0x0000000000000000000000000000000000000000');
    const coins = (balanceSum - (zero === undefined ? 0n : BigInt(zero['coin_balance'] as string))).toString().padStart(19, '0');
    t.equal((await get(Q('stats/coinsupply'))).body as unknown, Number.parseFloat(`${coins.slice(0, -18)}.${coins.slice(-18)}`), 'coinsupply = that less the zero address, in coins, a bare number');
    const cmc = await explorer.handle({ path: '/api', query: { module: 'stats', action: 'tokensupply', contractaddress: f.tokens.erc20, cmc: 'true' } });
    t.equal(cmc.headers['content-type']?.startsWith('text/plain'), true, 'cmc=true: text/plain');
    t.match(cmc.body, /^\d+\.\d{9}$/, 'cmc=true: whole tokens with 9 decimals');

    const erc20 = await okRows({ module: 'account', action: 'tokentx', address: alice });
    const v2erc20 = await walk(explorer, `/api/v2/addresses/${alice}/token-transfers`, { type: 'ERC-20' });
    t.same(erc20.map((r) => [r['hash'], r['value']]), v2erc20.items.map((i) => [i['transaction_hash'], (i['total'] as Body)['value']]), 'tokentx = v2 ERC-20 transfers');
    t.ok(erc20.every((r) => r['tokenSymbol'] === 'USDX' || r['contractAddress'] !== f.tokens.erc20), 'tokentx: token metadata');
    const nft = await okRows({ module: 'account', action: 'tokennfttx', contractaddress: f.tokens.erc721 });
    t.ok(nft.every((r) => typeof r['tokenID'] === 'string' && !('value' in r)), 'tokennfttx: tokenID, no value');
    const multiTok = await okRows({ module: 'account', action: 'token1155tx', contractaddress: f.tokens.erc1155 });
    const batch = multiTok.filter((r) => r['hash'] === f.transactions.erc1155LargeBatch);
    t.same(batch.map((r) => r['tokenID']).sort(), f.transactions.erc1155LargeBatchIds.map(String).sort(), 'token1155tx: a batch is one row per id');

    const bal = await get({ module: 'account', action: 'tokenbalance', address: alice, contractaddress: f.tokens.erc20 });
    const list = await okRows({ module: 'account', action: 'tokenlist', address: alice });
    t.equal(bal.body['result'], list.find((r) => r['contractAddress'] === f.tokens.erc20)?.['balance'], 'tokenbalance = tokenlist balance');
    t.equal((await get({ module: 'account', action: 'tokenbalance', address: f.unknownAddress, contractaddress: f.tokens.erc20 })).body['result'], '0', 'tokenbalance: none → "0"');

    const logs = await okRows({ module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: 'latest', address: f.tokens.erc20 });
    t.ok(logs.length > 0 && logs.every((l) => l['address'] === f.tokens.erc20 && (l['topics'] as unknown[]).length === 4), 'getLogs: by emitter, four topics');
    const numbers = logs.map((l) => [Number(l['blockNumber']), Number(l['logIndex'])] as const);
    t.ok(numbers.every((n, i) => i === 0 || n[0] > (numbers[i - 1] as readonly number[])[0]! || (n[0] === numbers[i - 1]![0] && n[1] > numbers[i - 1]![1])), 'getLogs: ascending');
    const transfer = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
    const aliceTopic = `0x${alice.slice(2).padStart(64, '0')}`;
    const byTopic = await okRows({ module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: 'latest', topic0: transfer, topic2: aliceTopic, topic0_2_opr: 'and' });
    t.ok(byTopic.length > 0 && byTopic.every((l) => (l['topics'] as string[])[0] === transfer && (l['topics'] as string[])[2] === aliceTopic), 'getLogs: topic0 and topic2');
    const either = await okRows({ module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: 'latest', address: f.tokens.erc20, topic1: aliceTopic, topic2: aliceTopic, topic1_2_opr: 'or' });
    t.ok(either.length > byTopic.filter((l) => l['address'] === f.tokens.erc20).length - 1 && either.every((l) => (l['topics'] as string[])[1] === aliceTopic || (l['topics'] as string[])[2] === aliceTopic), 'getLogs: topic1 or topic2');
    const v2logs = await walk(explorer, `/api/v2/addresses/${f.tokens.erc20}/logs`);
    const window = await okRows({ module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: String(head), address: f.tokens.erc20, offset: '1000' });
    t.equal(window.length, Math.min(1000, v2logs.items.length), 'getLogs: as many logs as v2 (up to 1000)');

    const info = (await get(Q('transaction/gettxinfo'))).body['result'] as Body;
    const v2tx = await v2(`/transactions/${f.transactions.eip1559}`);
    t.same([info['blockNumber'], info['gasUsed'], info['success'], info['value']], [String(v2tx['block_number']), v2tx['gas_used'], true, v2tx['value']], 'gettxinfo = v2 transaction');
    t.same((await get(Q('transaction/gettxreceiptstatus'))).body['result'], { status: '0' }, 'gettxreceiptstatus: a revert is "0"');
    t.same((await get({ module: 'transaction', action: 'gettxreceiptstatus', txhash: f.transactions.eip1559 })).body['result'], { status: '1' }, 'and a success "1"');
    t.equal(((await get(Q('transaction/getstatus'))).body['result'] as Body)['isError'], '1', 'getstatus: isError 1');

    // blocks by time: every block is found from its own timestamp, both ways
    for (const n of [0, 1, 77, head]) {
      const b = await v2(`/blocks/${n}`);
      const ts = Math.floor(Date.parse(b['timestamp'] as string) / 1000);
      t.same((await get({ module: 'block', action: 'getblocknobytime', timestamp: String(ts), closest: 'before' })).body['result'], { blockNumber: String(n) }, `block ${n} before its time`);
      t.same((await get({ module: 'block', action: 'getblocknobytime', timestamp: String(ts), closest: 'after' })).body['result'], { blockNumber: String(n) }, `block ${n} after its time`);
      if (n > 0) t.same((await get({ module: 'block', action: 'getblocknobytime', timestamp: String(ts - 1), closest: 'after' })).body['result'], { blockNumber: String(n) }, `block ${n}: the first after a second before`);
    }
    t.same((await get({ module: 'block', action: 'getblocknobytime', timestamp: String(headTime + 1), closest: 'after' })).body, { status: '0', message: 'Block does not exist', result: null }, 'after the head: none');
    t.same((await get({ module: 'block', action: 'eth_block_number', id: 'x' })).body, { jsonrpc: '2.0', id: 'x', result: `0x${head.toString(16)}` }, 'eth_block_number echoes a string id');

    const reward = (await get(Q('block/getblockreward'))).body['result'] as Body;
    t.same([reward['blockNumber'], typeof reward['timeStamp'], reward['blockReward']], ['5', 'number', '0'], 'getblockreward: no reward rows → zeros, timeStamp an integer');
    const fees = (await get(Q('stats/totalfees'))).body['result'];
    t.match(fees, /^\d+$/, 'totalfees: a wei string');
    const day = new Date(headTime * 1000).toISOString().slice(0, 10);
    const v2blocks = await walk(explorer, '/api/v2/blocks', { type: 'block' });
    const sameDay = v2blocks.items.filter((b) => (b['timestamp'] as string).slice(0, 10) === day);
    t.equal(fees, sameDay.reduce((sum, b) => sum + BigInt(b['transaction_fees'] as string), 0n).toString(), 'totalfees = Σ transaction_fees of the day’s blocks (v2)');
    t.same((await get({ module: 'stats', action: 'totalfees', date: '2001-01-01' })).body['result'], null, 'totalfees: a day without blocks → null');
    t.same((await get(Q('contract/getsourcecode'))).body['result'], [
      { Address: f.tokens.erc20, SourceCode: '', ABI: 'Contract source code not verified', ContractName: '', CompilerVersion: '', OptimizationUsed: '', DecompiledSourceCode: '', DecompilerVersion: '' },
    ], 'getsourcecode: unverified');
    t.same((await get(Q('contract/getabi'))).body, { status: '0', message: 'NOTOK', result: 'Contract source code not verified' }, 'getabi: unverified (Etherscan\'s answer)');

    t.same((await get(Q('stats/coinprice'))).body['result'], { coin_btc: null, coin_btc_timestamp: null, coin_usd: null, coin_usd_timestamp: null }, 'coinprice: no market data, nulls');
    t.same((await get(Q('stats/ethprice'))).body['result'], { ethbtc: null, ethbtc_timestamp: null, ethusd: null, ethusd_timestamp: null }, 'ethprice: the same, eth… keys');
    // eth_get_balance: Blockscout's JSON-RPC shaped balance, as of a block
    const hexBalance = `0x${BigInt(aliceV2['coin_balance'] as string).toString(16)}`;
    for (const block of [undefined, 'latest', String(head), String(head + 1000)]) {
      const a = await get({ module: 'account', action: 'eth_get_balance', address: alice, ...(block === undefined ? {} : { block }) });
      t.same([a.status, a.body], [200, { jsonrpc: '2.0', result: hexBalance, id: 0 }], `eth_get_balance at ${block ?? 'the default'}: the current balance`);
    }
    const history = await walk(explorer, `/api/v2/addresses/${alice}/coin-balance-history`);
    const older = history.items[history.items.length - 1] as Body;
    const atOlder = await get({ module: 'account', action: 'eth_get_balance', address: alice, block: String(older['block_number']) });
    t.same(atOlder.body, { jsonrpc: '2.0', result: `0x${BigInt(older['value'] as string).toString(16)}`, id: 0 }, 'eth_get_balance at an older block: the balance recorded then');
    for (const [query, status, error] of [
      [{ address: f.unknownAddress }, 404, 'Balance not found'],
      [{ address: alice, block: 'pending' }, 404, 'Balance not found'],
      [{ address: alice, block: '0x10' }, 400, 'Invalid block'],
      [{ address: 'nope' }, 400, 'Invalid address hash'],
      [{}, 400, "Query parameter 'address' is required"],
    ] as const) {
      const a = await get({ module: 'account', action: 'eth_get_balance', ...query });
      t.same([a.status, a.body], [status, { jsonrpc: '2.0', error, id: 0 }], `eth_get_balance ${JSON.stringify(query)}: ${status} ${error}`);
    }

    // ERC-404 and ERC-7984 transfers: as v2 lists them (404: one row per NFT id)
    for (const [action, token, type] of [['token404tx', f.tokens.erc404, 'ERC-404'], ['token7984tx', f.tokens.erc7984, 'ERC-7984']] as const) {
      const rows = await okRows({ module: 'account', action, contractaddress: token });
      const v2rows = await walk(explorer, `/api/v2/tokens/${token}/transfers`);
      t.same(new Set(rows.map((r) => r['hash'])), new Set(v2rows.items.map((i) => i['transaction_hash'])), `${action}: the transactions of v2's ${type} transfers`);
      t.ok(rows.every((r) => r['contractAddress'] === token && 'value' in r), `${action}: rows of the token, with value`);
      if (type === 'ERC-7984') t.ok(rows.every((r) => r['value'] === null && !('tokenID' in r)), 'token7984tx: value null (confidential), no tokenID');
      else t.ok(rows.every((r) => typeof r['tokenID'] === 'string' && typeof r['value'] === 'string'), 'token404tx: tokenID and value');
    }
    const countdown = (await get(Q('block/getblockcountdown'))).body['result'] as Body;
    const v2countdown = await v2(`/blocks/${head + 100}/countdown`);
    t.same(countdown, { CurrentBlock: String(head), CountdownBlock: String(head + 100), RemainingBlock: '100', EstimateTimeInSec: v2countdown['estimated_time_in_seconds'] }, 'getblockcountdown = v2 countdown');

    // contract creations: the creator and creation transaction, as v2 shows them
    const created = await okRows(Q('contract/getcontractcreation'));
    t.same(created.map((r) => r['contractAddress']), [f.transactions.contractCreationAddress, f.transactions.createdByContractAddress], 'getcontractcreation: one row per contract, in the order asked');
    for (const r of created) {
      const address = await v2(`/addresses/${r['contractAddress'] as string}`);
      const creationTx = await v2(`/transactions/${r['txHash'] as string}`);
      t.same(
        [r['txHash'], r['contractCreator'], r['blockNumber'], r['timestamp']],
        [address['creation_transaction_hash'], ((creationTx['from'] as Body)['hash'] as string).toLowerCase(), String(creationTx['block_number']), String(Date.parse(creationTx['timestamp'] as string) / 1000)],
        `getcontractcreation ${r['contractAddress'] as string} = v2 creation`,
      );
      t.ok(Object.values(r).every((v) => typeof v === 'string'), 'every value a string');
    }
    t.same([created[0]?.['contractFactory'], created[1]?.['contractFactory']], ['', f.transactions.creatorContract.toLowerCase()], 'contractFactory: "" for a transaction, the factory for a create frame');
    t.match(created[0]?.['creationBytecode'], /^0x[0-9a-f]{20,}$/, 'creationBytecode: the init code');
    const mixed = await okRows({ module: 'contract', action: 'getcontractcreation', contractaddresses: `nope, ${f.unknownAddress},${alice},${f.transactions.contractCreationAddress.toUpperCase().replace('0X', '0x')}` });
    t.same(mixed.map((r) => r['contractAddress']), [f.transactions.contractCreationAddress], 'malformed, unknown and non-contract addresses are dropped');
    t.same((await get({ module: 'contract', action: 'getcontractcreation', contractaddresses: f.unknownAddress })).body, { status: '1', message: 'OK', result: [] }, 'none found: an empty result');

    // functionName: the decoded method's signature, "" when no known ABI decodes it
    const named = txs.filter((r) => r['functionName'] !== '');
    t.ok(named.length > 0 && txs.some((r) => r['functionName'] === ''), 'txlist: functionName set where known, "" elsewhere');
    for (const r of txs.slice(0, 20)) {
      const decoded = (await v2(`/transactions/${r['hash'] as string}`))['decoded_input'] as Body | null;
      t.equal(r['functionName'], decoded === null ? '' : decoded['method_call'], `txlist functionName ${r['hash'] as string} = v2 decoded_input.method_call`);
    }
    t.ok(erc20.every((r) => typeof r['functionName'] === 'string') && erc20.some((r) => (r['functionName'] as string).startsWith('transfer')), 'tokentx: functionName too');

    // proxy eth_getTransactionCount: the nonce after the head, from the store's transactions
    const sent = await okRows({ module: 'account', action: 'txlist', address: alice, filter_by: 'from', sort: 'desc', offset: '1' });
    const nonce = (await get(Q('proxy/eth_gettransactioncount'))).body;
    t.same(nonce, { jsonrpc: '2.0', id: 1, result: `0x${(Number(sent[0]?.['nonce']) + 1).toString(16)}` }, 'proxy eth_getTransactionCount: the last nonce sent + 1');

    const proxyTx = (await get(Q('proxy/eth_gettransactionbyhash'))).body;
    // (the suite's explorer may be a wrapper without rpc: a plain one over the same store)
    const rpcTx = await createExplorer({ chains: { '1': store } }).rpc({ chainId: '1', body: { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [f.transactions.eip1559] } });
    t.same(proxyTx, JSON.parse(toJson(rpcTx.body)), 'proxy: the same answer as /api/eth-rpc');

    // the multichain form and POST-like bodies reach the same actions
    const multichain = await get({ module: 'account', action: 'balance', address: alice }, '/1/api');
    t.equal(multichain.body['result'], aliceV2['coin_balance'], '/{chain_id}/api');
    t.equal((await get({ module: 'account', action: 'balance', address: alice }, '/7/api')).status, 404, 'an unknown chain: 404');
  });

  // ---- paging ----------------------------------------------------------------------------------
  const LISTS: readonly { readonly name: string; readonly query: Query; readonly max?: number; readonly ordered?: boolean; readonly blockKey?: string }[] = [
    { name: 'txlist', query: { module: 'account', action: 'txlist', address: alice }, ordered: true, blockKey: 'blockNumber' },
    { name: 'txlistinternal', query: { module: 'account', action: 'txlistinternal', address: f.hotAddress }, ordered: true, blockKey: 'blockNumber' },
    { name: 'txlistinternal (all, zero values too)', query: { module: 'account', action: 'txlistinternal', include_zero_value: 'true' }, ordered: true, blockKey: 'blockNumber' },
    { name: 'tokentx', query: { module: 'account', action: 'tokentx', address: alice }, ordered: true, blockKey: 'blockNumber' },
    { name: 'tokennfttx', query: { module: 'account', action: 'tokennfttx', address: f.hotAddress }, ordered: true, blockKey: 'blockNumber' },
    { name: 'token1155tx', query: { module: 'account', action: 'token1155tx', contractaddress: f.tokens.erc1155 }, ordered: true, blockKey: 'blockNumber' },
    { name: 'tokenlist', query: { module: 'account', action: 'tokenlist', address: f.hotAddress } },
    { name: 'getminedblocks', query: { module: 'account', action: 'getminedblocks', address: f.miner } },
    { name: 'pendingtxlist', query: { module: 'account', action: 'pendingtxlist', address: alice } },
    { name: 'getTokenHolders', query: { module: 'token', action: 'getTokenHolders', contractaddress: f.tokens.erc20 } },
    { name: 'getLogs', query: { module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: 'latest', topic0: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef' }, max: 1000 },
  ];

  await t.test('page/offset: every row once, at two page sizes', async (t) => {
    for (const list of LISTS) {
      const all = await okRows({ ...list.query, page: '1', offset: String(list.max ?? 10_000) });
      t.ok(all.length >= 3, `${list.name}: ${all.length} rows in the fixture`);
      for (const size of [3, 40]) {
        const seen: Row[] = [];
        for (let page = 1; ; page++) {
          const a = await get({ ...list.query, page: String(page), offset: String(size) });
          if (a.body['status'] === '0') {
            t.match(a.body['message'], /^No .* found$/, `${list.name}: past the end, "No … found"`);
            t.same(a.body['result'], [], `${list.name}: past the end, an empty list`);
            break;
          }
          const rows = a.body['result'] as Row[];
          t.ok(rows.length <= size, `${list.name} page ${page}: at most ${size} rows`);
          seen.push(...rows);
          if (page > 2000) throw new Error(`${list.name}: no end`);
        }
        t.same(seen, all, `${list.name} by ${size}: the pages put together are the whole list, each row once`);
      }
      if (list.ordered === true) {
        const asc = await okRows({ ...list.query, sort: 'asc', offset: String(list.max ?? 10_000) });
        t.same(asc.map((r) => Number(r['blockNumber'])), [...all].reverse().map((r) => Number(r['blockNumber'])), `${list.name}: sort=asc runs the blocks backwards`);
        t.equal(asc.length, all.length, `${list.name}: sort=asc, the same rows`);
      }
      if (list.blockKey !== undefined) {
        const blocks = all.map((r) => Number(r[list.blockKey as string]));
        const lo = Math.min(...blocks);
        const hi = Math.max(...blocks);
        const mid = Math.floor((lo + hi) / 2);
        const bounded = await get({ ...list.query, startblock: String(lo + 1), endblock: String(mid) });
        const expected = all.filter((r) => Number(r[list.blockKey as string]) >= lo + 1 && Number(r[list.blockKey as string]) <= mid);
        t.same(bounded.body['status'] === '1' ? bounded.body['result'] : [], expected, `${list.name}: startblock/endblock bound the list`);
      }
    }
    // the result window, as Blockscout: page × offset ≤ 10000
    const window = await get({ module: 'account', action: 'txlist', address: alice, page: '2', offset: '5001' });
    t.same(window.body, { status: '0', message: 'Result window is too large, PageNo x Offset size must be less than or equal to 10000', result: null }, 'page × offset > 10000: refused');
    t.equal((await get({ module: 'account', action: 'txlist', address: alice, page: '0', offset: 'abc' })).body['status'], '1', 'out-of-range page/offset: ignored');
  });

  // ---- bad input -------------------------------------------------------------------------------
  await t.test('bad parameters: Etherscan-style errors, never a 5xx', async (t) => {
    const ERRORS: readonly [Query, number, string, unknown][] = [
      [{}, 400, "Params 'module' and 'action' are required parameters", null],
      [{ module: 'account' }, 400, "Params 'module' and 'action' are required parameters", null],
      [{ action: 'txlist' }, 400, "Params 'module' and 'action' are required parameters", null],
      [{ module: 'nope', action: 'txlist' }, 400, 'Unknown module', null],
      [{ module: 'account', action: 'nope' }, 400, 'Unknown action', null],
      [{ module: 'contract', action: 'verifysourcecode' }, 200, 'Missing codeformat field', 'Missing codeformat field'],
      [{ module: 'contract', action: 'nope' }, 400, 'Unknown action', null],
      [{ module: 'account', action: 'txlist' }, 200, "Query parameter 'address' is required", null],
      [{ module: 'account', action: 'txlist', address: '0x12' }, 200, 'Invalid address format', null],
      [{ module: 'account', action: 'balance', address: `${alice},0xzz` }, 200, 'Invalid address format', null],
      [{ module: 'account', action: 'balance', address: Array.from({ length: 21 }, () => alice).join(',') }, 200, 'Invalid address format', null],
      [{ module: 'account', action: 'txlist', address: f.unknownAddress }, 200, 'No transactions found', []],
      [{ module: 'account', action: 'txlistinternal', txhash: '0x1' }, 200, 'Invalid txhash format', null],
      [{ module: 'account', action: 'txlistinternal', address: f.unknownAddress }, 200, 'No internal transactions found', []],
      [{ module: 'account', action: 'tokentx' }, 200, 'Required query parameters missing: address or contractaddress', null],
      [{ module: 'account', action: 'tokentx', contractaddress: 'x' }, 200, 'Invalid contractaddress format', null],
      [{ module: 'account', action: 'tokentx', address: f.unknownAddress }, 200, 'No token transfers found', []],
      [{ module: 'account', action: 'tokenbalance', address: alice }, 200, 'Required query parameters missing: contractaddress', null],
      [{ module: 'account', action: 'tokenlist', address: f.unknownAddress }, 200, 'No tokens found', []],
      [{ module: 'account', action: 'getminedblocks', address: alice }, 200, 'No blocks found', []],
      [{ module: 'block', action: 'getblockreward' }, 200, "Query parameter 'blockno' is required", null],
      [{ module: 'block', action: 'getblockreward', blockno: 'x' }, 200, 'Invalid block number', null],
      [{ module: 'block', action: 'getblockreward', blockno: String(head + 1) }, 200, 'Block does not exist', null],
      [{ module: 'block', action: 'getblockcountdown' }, 200, "Query parameter 'blockno' is required", null],
      [{ module: 'block', action: 'getblockcountdown', blockno: 'soon' }, 200, 'Invalid block number', null],
      [{ module: 'block', action: 'getblockcountdown', blockno: String(head) }, 200, 'Error! Block number already pass', null],
      [{ module: 'block', action: 'getblocknobytime', timestamp: '1' }, 200, "Query parameter 'closest' is required", null],
      [{ module: 'block', action: 'getblocknobytime', timestamp: '-1', closest: 'before' }, 200, 'Invalid timestamp format', null],
      [{ module: 'block', action: 'getblocknobytime', timestamp: '1', closest: 'nearest' }, 200, 'Invalid closest format', null],
      [{ module: 'block', action: 'getblocknobytime', timestamp: '1', closest: 'before' }, 200, 'Block does not exist', null],
      [{ module: 'logs', action: 'getLogs', address: alice }, 200, 'Required query parameters missing: fromBlock, toBlock', null],
      [{ module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: 'latest' }, 200, 'Required query parameters missing: address and/or topic0..topic3', null],
      [{ module: 'logs', action: 'getLogs', fromBlock: 'x', toBlock: 'latest', address: alice }, 200, 'Invalid fromBlock format', null],
      [{ module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: 'latest', topic0: '0x12' }, 200, 'Invalid topic0 format', null],
      [{ module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: 'latest', topic0: `0x${'11'.repeat(32)}`, topic1: `0x${'22'.repeat(32)}` }, 200, 'Required query parameters missing: topic0_1_opr', null],
      [{ module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: 'latest', topic0: `0x${'11'.repeat(32)}`, topic1: `0x${'22'.repeat(32)}`, topic0_1_opr: 'xor' }, 200, 'Invalid topic0_1_opr format', null],
      [{ module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: 'latest', address: f.unknownAddress }, 200, 'No logs found', []],
      [{ module: 'transaction', action: 'gettxinfo', txhash: `0x${'12'.repeat(32)}` }, 200, 'Transaction not found', null],
      [{ module: 'transaction', action: 'getstatus' }, 200, "Query parameter 'txhash' is required", null],
      [{ module: 'token', action: 'getToken', contractaddress: f.unknownAddress }, 200, 'Contract address not found', null],
      [{ module: 'token', action: 'getToken' }, 200, "Query parameter 'contractaddress' is required", null],
      [{ module: 'stats', action: 'tokensupply', contractaddress: '0x' }, 200, 'Invalid contractaddress format', null],
      [{ module: 'stats', action: 'totalfees', date: '2024-02-30' }, 200, 'Invalid date format', null],
      [{ module: 'stats', action: 'totalfees' }, 200, "Query parameter 'date' is required", null],
      [{ module: 'contract', action: 'getabi', address: 'nope' }, 200, 'Invalid address format', null],
      [{ module: 'contract', action: 'getcontractcreation' }, 200, 'Query parameter contractaddresses is required', 'Query parameter contractaddresses is required'],
    ];
    for (const [query, status, message, result] of ERRORS) {
      const a = await get(query);
      t.same([a.status, a.body], [status, { status: '0', message, result }], `${JSON.stringify(query)} → ${message}`);
    }
    // every action, with junk in every parameter it might read: an envelope, never a 5xx
    const JUNK = ['', 'x', '0x', '-1', '99999999999999999999999', `0x${'zz'.repeat(20)}`, 'latest', '%00'];
    const NAMES = ['address', 'contractaddress', 'contractaddresses', 'txhash', 'blockno', 'timestamp', 'closest', 'fromBlock', 'toBlock', 'topic0', 'topic1', 'topic0_1_opr', 'page', 'offset', 'sort', 'startblock', 'endblock', 'tag', 'boolean', 'date', 'position', 'hex', 'to', 'data', 'id', 'index'];
    let tried = 0;
    for (const a of ETHERSCAN_ACTIONS) {
      for (const junk of JUNK) {
        const query: Query = { module: a.module, action: a.action };
        for (const n of NAMES) query[n] = junk;
        const r = await get(query);
        tried += 1;
        if (r.status >= 500) t.fail(`${a.module}/${a.action} with ${JSON.stringify(junk)}: ${r.status}`);
        const shaped = r.body['jsonrpc'] === '2.0' || ['0', '1'].includes(r.body['status'] as string) || (BARE.has(`${a.module}/${a.action}`) && typeof r.body === 'number');
        if (!shaped) t.fail(`${a.module}/${a.action} with ${JSON.stringify(junk)}: not an envelope ${JSON.stringify(r.body)}`);
      }
    }
    t.ok(tried > 200, `${tried} junk requests answered with an envelope, none with a 5xx`);
  });

  // ---- the legacy paths ------------------------------------------------------------------------
  await t.test('the legacy paths validate against the official document', async (t) => {
    const cases: readonly [string, Query][] = [
      ['/legacy/logs/get-logs', { fromBlock: '0', toBlock: 'latest', address: f.tokens.erc20 }],
      ['/legacy/logs/get-logs', { fromBlock: '0', toBlock: 'latest', topic0: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', topic1: `0x${'00'.repeat(32)}`, topic0_1_opr: 'and' }],
      ['/legacy/logs/get-logs', { fromBlock: '0', toBlock: 'latest', address: f.unknownAddress }],
      ['/legacy/logs/get-logs', { fromBlock: 'x' }],
      ['/legacy/block/get-block-number-by-time', { timestamp: String(headTime), closest: 'before' }],
      ['/legacy/block/get-block-number-by-time', { timestamp: '1', closest: 'before' }],
      ['/legacy/block/get-block-number-by-time', {}],
      ['/legacy/block/eth-block-number', {}],
      ['/legacy/block/eth-block-number', { id: '42' }],
    ];
    t.same([...new Set(cases.map(([p]) => p))].sort(), Object.keys(LEGACY_PATHS).sort(), 'every legacy path is checked');
    // absent documents: one loud line off CI (the bodies are still compared with the actions'), an error under CI=true
    const specs = await officialSpecs();
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    for (const [path, query] of cases) {
      for (const prefix of ['/api', '/1/api']) {
        const a = await get(query, `${prefix}${path}`);
        t.equal(a.status, 200, `${prefix}${path} ${JSON.stringify(query)}: 200`);
        const legacyAction = LEGACY_PATHS[path];
        const same = await get({ module: legacyAction?.module ?? '', action: legacyAction?.action ?? '', ...query });
        t.same(a.body, same.body, `${prefix}${path}: the same answer as module=${legacyAction?.module}&action=${legacyAction?.action}`);
        if (specs === null) continue;
        const op = ((specs.instance.doc['paths'] as Record<string, Record<string, unknown>>)[path]?.['get'] ?? null) as Body | null;
        const schema = ((((op?.['responses'] as Body)['200'] as Body)['content'] as Body)['application/json'] as Body)['schema'];
        const validate = ajv.compile(toJsonSchema(schema as never) as object);
        t.ok(validate(a.body), `${prefix}${path} ${JSON.stringify(query)}: the official document (${JSON.stringify(validate.errors ?? [])})`);
      }
    }
    if (specs === null) t.comment(`official documents missing (${missingSpecFiles().join(', ')}): legacy bodies not validated against them`);
    t.equal((await explorer.handle({ path: '/api/legacy/nope', query: {} })).status, 404, 'an unknown path below /api: not ours');
  });
}
