/**
 * GET /transactions/{h}/summary through createExplorer, on every store SCOUTKIT_STORES selects:
 * the fixture chain's transactions (native transfer, mint, burn, ERC-721 transfer, approval,
 * creation, a failed one, a pending one), 404 and 422 in Blockscout's bodies, the multichain
 * form; then a chain written here with an account's execute / executeBatch (decoded by the
 * signature table, a library user's ABI and the account's verified ABI) and a router swap. Every answer validates
 * against both official documents.
 */
import t from 'tap';
import type { Test } from 'tap';
import { encodeFunctionData, getAddress, parseAbi } from 'viem';
import type { Address, Hex } from '../../../lib/domain/records.ts';
import type { Explorer } from '../../../lib/index.ts';
import { createExplorer, hex, saveVerifiedContract, toJson } from '../../../lib/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { officialSpecs, validateResponse } from '../../support/openapi.ts';
import { contractStoreBeside } from '../../support/contracts.ts';
import { storeFactories } from '../../support/stores.ts';
import { block, bundle, itx, token, transfer, tx } from '../../ports/records.ts';

const TEMPLATE = '/transactions/{transaction_hash_param}/summary';
const ACCOUNT_CODE: Hex = hex('0x6080604052348015600e575f5ffd5b50');
const specs = await officialSpecs();
const factories = await storeFactories();

type Variable = { type: string; value: string | { hash?: string; symbol?: string | null; address_hash?: string } };
type Body = { success: boolean; data: { summaries: { summary_template: string; summary_template_variables: Record<string, Variable> }[] } };

/** An answer as text: each summary's template filled in (an address by its hash, a token by its symbol), after validating it. */
async function summaries(t: Test, ex: Explorer, hash: string, form: 'instance' | 'multichain' = 'instance'): Promise<string[]> {
  const r = await ex.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2/transactions/${hash}/summary` });
  t.equal(r.status, 200, `${hash}: 200`);
  const body = JSON.parse(toJson(r.body)) as Body;
  if (specs !== null) t.same(validateResponse(specs, form === 'instance' ? 'instance' : 'pro', TEMPLATE, 200, body), [], `${hash}: the official document (${form})`);
  t.equal(body.success, true);
  return body.data.summaries.map((s) =>
    s.summary_template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const v = s.summary_template_variables[name];
      if (v === undefined) return name === 'native' ? 'ETH' : `{${name}?}`;
      return typeof v.value === 'string' ? v.value : (v.value.hash ?? v.value.symbol ?? v.value.address_hash ?? '?');
    }),
  );
}

for (const factory of factories) {
  await t.test(`${factory.name}: the fixture chain`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const { facts: f } = await loadFixtureChain(store);
    const ex = createExplorer({ chains: { '1': store } });
    const x = f.transactions;
    t.same(await summaries(t, ex, x.coinTransfer), ['Transfer 0.2 ETH to 0xe0A0000000000000000000000000000000000003'], 'a coin transfer');
    t.same((await summaries(t, ex, x.mint)).slice(0, 2), ['Mint 1000000 USDX to 0xE0a0000000000000000000000000000000000001', 'Mint 1000000 USDX to 0xe0A0000000000000000000000000000000000002'], 'a mint');
    t.same(await summaries(t, ex, x.burn), ['Burn 5 USDX from 0xe0A0000000000000000000000000000000000003'], 'a burn');
    t.same(await summaries(t, ex, x.erc721Transfer), ['Transfer PUNK #1 to 0xE0a0000000000000000000000000000000000005', 'Transfer PUNK #6 to 0xE0a0000000000000000000000000000000000005'], 'ERC-721 transfers');
    t.same(await summaries(t, ex, x.approval), ['Approve 50 USDX for 0xe0A0000000000000000000000000000000000002'], 'an approval');
    t.same(await summaries(t, ex, x.contractCreation), ['Deploy contract 0x7000000000000000000000000000000000000020'], 'a creation');
    t.equal((await summaries(t, ex, x.manyTokenTransfers)).length, 10, 'many transfers: the first 10');
    t.same(await summaries(t, ex, x.reverted), [], 'a failed transaction: no summaries');
    t.same(await summaries(t, ex, f.pendingHashes[0] ?? ''), [], 'a pending one: none');
    t.same(await summaries(t, ex, x.undecodableLog), [], 'nothing a rule reads: none');
    t.same(await summaries(t, ex, x.coinTransfer, 'multichain'), ['Transfer 0.2 ETH to 0xe0A0000000000000000000000000000000000003'], 'the multichain form');

    const r = await ex.handle({ path: `/api/v2/transactions/${x.coinTransfer}/summary` });
    const to = (r.body as unknown as Body).data.summaries[0]?.summary_template_variables.to_address;
    t.match(to, { type: 'address', value: { hash: '0xe0A0000000000000000000000000000000000003', is_contract: false } }, 'an address variable is the Address object');
    const approval = await ex.handle({ path: `/api/v2/transactions/${x.approval}/summary`, query: { just_request_body: 'false' } });
    t.match((approval.body as unknown as Body).data.summaries[0]?.summary_template_variables.token, { type: 'token', value: { symbol: 'USDX', type: 'ERC-20', address_hash: /^0x/ } }, 'a token variable is the Token object');

    // just_request_body=true: what Blockscout would send its interpreter
    for (const form of ['instance', 'multichain'] as const) {
      for (const hash of [x.approval, x.erc1155BatchRepeatedId, x.createdByContract, x.reverted, f.pendingHashes[0] ?? '']) {
        const r = await ex.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2/transactions/${hash}/summary`, query: { just_request_body: 'true' } });
        t.equal(r.status, 200, `${form} ${hash} just_request_body: 200`);
        if (specs !== null) t.same(validateResponse(specs, form === 'instance' ? 'instance' : 'pro', TEMPLATE, 200, JSON.parse(toJson(r.body))), [], `${form} ${hash} just_request_body: the official document`);
      }
    }
    const request = await ex.handle({ path: `/api/v2/transactions/${x.approval}/summary`, query: { just_request_body: 'true' } });
    t.match(JSON.parse(toJson(request.body)), {
      data: { hash: x.approval, method: 'approve', status: 'ok', value: '0', raw_input: /^0x095ea7b3/, decoded_input: { method_call: 'approve(address spender, uint256 value)' }, token_transfers: [], internal_transactions: [] },
      logs_data: { items: [{ decoded: { method_call: 'Approval(address indexed owner, address indexed spender, uint256 value)' } }] },
      chain_id: 1,
    }, 'the transaction, its decoded input and its logs');
    const batch = await ex.handle({ path: `/api/v2/transactions/${x.erc1155BatchRepeatedId}/summary`, query: { just_request_body: 'true' } });
    t.equal((batch.body as { data: { token_transfers: unknown[] } }).data.token_transfers.length, 2, 'an ERC-1155 batch: one token transfer per id (a repeated id once), as the lists split it');
    t.same(await summaries(t, ex, x.erc1155BatchRepeatedId), ['Transfer 1 ITEM #7 to 0xe0A0000000000000000000000000000000000003', 'Transfer 4 ITEM #5 to 0xe0A0000000000000000000000000000000000003'].reverse(), 'the summary too: ids 5, 7, 5 → #5 (1 + 3), #7');

    const missing = await ex.handle({ path: `/api/v2/transactions/0x${'ab'.repeat(32)}/summary` });
    t.same([missing.status, missing.body], [404, { message: 'Not found' }], 'unknown → 404');
    const bad = await ex.handle({ path: '/api/v2/transactions/0x12/summary' });
    t.same([bad.status, bad.body], [422, { errors: [{ title: 'Invalid value', source: { pointer: '/transaction_hash_param' }, detail: 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{64})$/' }] }], 'malformed → 422');
    if (specs !== null) {
      t.same(validateResponse(specs, 'instance', TEMPLATE, 404, JSON.parse(toJson(missing.body))), [], '404: the official document');
      t.same(validateResponse(specs, 'instance', TEMPLATE, 422, JSON.parse(toJson(bad.body))), [], '422: the official document');
    }
  });

  await t.test(`${factory.name}: an account's execute and executeBatch, a router swap`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const eoa = '0x00000000000000000000000000000000000a11ce' as Address;
    const account = '0x0000000000000000000000000000000000acc001' as Address;
    const router = '0x0000000000000000000000000000000000007007' as Address;
    const pool = '0x0000000000000000000000000000000000009001' as Address;
    const usd = '0x0000000000000000000000000000000000000d05' as Address;
    const weth = '0x0000000000000000000000000000000000000e7e' as Address;
    const friend = '0x0000000000000000000000000000000000000b0b' as Address;
    const abi = parseAbi([
      'function execute(address target, uint256 value, bytes data)',
      'function executeBatch((address target, uint256 value, bytes data)[] calls)',
      'function transfer(address to, uint256 value) returns (bool)',
      'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
    ]);
    const v07 = parseAbi(['function executeBatch(address[] dest, uint256[] value, bytes[] func)']);
    const pay = encodeFunctionData({ abi, functionName: 'transfer', args: [friend, 5_000_000n] });
    const swapData = hex(encodeFunctionData({ abi, functionName: 'swapExactTokensForTokens', args: [1_000_000n, 1n, [usd, weth], eoa, 1n] }));
    const b = block(1);
    const call = (index: number, to: Address, input: Hex, value = 0n) => tx(b, index, { from: eoa, to, input, methodId: input.slice(0, 10) as Hex, value, gas: 100_000n });
    const execute = call(0, account, hex(encodeFunctionData({ abi, functionName: 'execute', args: [friend, 10n ** 17n, '0x'] })));
    const batch = call(1, account, hex(encodeFunctionData({ abi, functionName: 'executeBatch', args: [[{ target: usd, value: 0n, data: pay }, { target: friend, value: 1n, data: '0x' }]] })));
    const arrays = call(2, account, hex(encodeFunctionData({ abi: v07, functionName: 'executeBatch', args: [[usd], [], [pay]] })));
    const swapTx = call(3, router, swapData);
    const quiet = call(4, account, hex(encodeFunctionData({ abi, functionName: 'execute', args: [usd, 0n, pay] })));
    const value = (it: ReturnType<typeof itx>, v: bigint) => ({ ...it, value: v });
    await store.writeBlocks([
      bundle(b, {
        transactions: [execute, batch, arrays, swapTx, quiet],
        internalTransactions: [
          value(itx(execute, 1, 'call', account, friend), 10n ** 17n),
          itx(batch, 1, 'call', account, usd),
          value(itx(batch, 2, 'call', account, friend), 1n),
          itx(arrays, 1, 'call', account, usd),
          itx(swapTx, 1, 'call', router, usd),
          itx(swapTx, 2, 'call', router, pool),
          itx(quiet, 1, 'call', account, usd),
        ],
        tokenTransfers: [
          transfer(batch, 0, usd, 'ERC-20', account, friend, [], 5_000_000n),
          transfer(arrays, 1, usd, 'ERC-20', account, friend, [], 5_000_000n),
          transfer(swapTx, 2, usd, 'ERC-20', eoa, pool, [], 1_000_000n),
          transfer(swapTx, 3, weth, 'ERC-20', pool, eoa, [], 10n ** 15n),
        ],
        tokens: [{ ...token(usd, 'ERC-20', 'Dollar'), symbol: 'USD', decimals: 6n }, { ...token(weth, 'ERC-20', 'Wrapped'), symbol: 'WETH' }],
        contractCodes: [{ address: account, blockNumber: 1, blockHash: b.hash, transactionHash: execute.hash, transactionIndex: 0, timestamp: b.timestamp, creator: eoa, deployedBytecode: ACCOUNT_CODE, creationBytecode: null }],
      }),
    ]);
    const ex = createExplorer({ chains: { '1': store } });
    t.same(await summaries(t, ex, execute.hash), [`Transfer 0.1 ETH to ${getAddress(friend)}`], 'execute: the account sent the coin');
    t.same(await summaries(t, ex, batch.hash), [`Transfer 0.000000000000000001 ETH to ${getAddress(friend)}`, `Transfer 5 USD to ${getAddress(friend)}`], 'executeBatch (tuples, by the signature table): both calls');
    t.same(await summaries(t, ex, arrays.hash), [`Transfer 5 USD from ${getAddress(account)} to ${getAddress(friend)}`], 'executeBatch (v0.7 arrays): undecoded without its ABI, a plain transfer');
    const withAbi = createExplorer({ chains: { '1': store }, abis: [v07] });
    t.same(await summaries(t, withAbi, arrays.hash), [`Transfer 5 USD to ${getAddress(friend)}`], "executeBatch (v0.7 arrays) with a library user's ABI: the account is the sender");
    // the account verified with the v0.7 ABI: its executeBatch decodes by its own ABI
    const contracts = contractStoreBeside(store);
    await saveVerifiedContract({ contracts }, { address: account, deployedBytecode: ACCOUNT_CODE, name: 'SimpleAccount', compilerVersion: 'v0.8.24+commit.e11b9ed9', optimizationEnabled: false, filePath: 'SimpleAccount.sol', sources: { 'SimpleAccount.sol': 'contract SimpleAccount {}' }, abi: [...v07] });
    const verified = createExplorer({ chains: { '1': { store, contracts } } });
    t.same(await summaries(t, verified, arrays.hash), [`Transfer 5 USD to ${getAddress(friend)}`], "executeBatch (v0.7 arrays) by the account's verified ABI: the account is the sender");
    t.same(await summaries(t, ex, swapTx.hash), ['Swap 1 USD for 0.001 WETH'], 'a router swap');
    t.same(await summaries(t, ex, quiet.hash), [`Call transfer on ${getAddress(usd)}`], 'an account call that moved nothing: the call');
  });
}
