import t from 'tap';
import { createPublicClient, decodeErrorResult, getContractAddress, http, parseEther } from 'viem';
import type { Abi, Address, Hash, Hex } from 'viem';
import { startAnvil } from '../../demo/anvil.ts';
import { CONTRACTS } from '../../demo/artifacts.ts';
import { fillChain } from '../../demo/fill.ts';
import { BIG_NFT_ID, CREATE2_SALT, runScenario } from '../../demo/scenario.ts';

const anvil = await startAnvil();
t.teardown(() => anvil.stop());

const compiled = CONTRACTS;
const facts = await runScenario(anvil.url, { rounds: 2 });
const client = createPublicClient({ transport: http(anvil.url) });
const { accounts: a, contracts: c, txs } = facts;

const abi = (name: string): Abi => {
  const found = compiled[name];
  if (!found) throw new Error(`no contract ${name}`);
  return found.abi;
};
const read = (address: Address, contract: string, functionName: string, args: readonly unknown[] = []): Promise<unknown> =>
  client.readContract({ address, abi: abi(contract), functionName, args });
const status = async (hash: Hash): Promise<string> => (await client.getTransactionReceipt({ hash })).status;

t.test('compiled contracts', async (t) => {
  for (const name of ['DemoToken', 'DemoNFT', 'DemoMulti', 'Router', 'Reverter', 'TokenFactory']) {
    t.ok(compiled[name]?.bytecode.startsWith('0x6'), `${name} has creation bytecode`);
  }
});

t.test('facts', async (t) => {
  t.equal(facts.chainId, 31337);
  t.equal(facts.blockNumber, await client.getBlockNumber({ cacheTime: 0 }));
  t.equal(facts.allTxs.length, new Set(facts.allTxs).size, 'distinct hashes');
  t.equal(facts.roundTxs.length, 10);
  for (const hash of Object.values(txs)) t.ok(facts.allTxs.includes(hash), `${hash} listed`);
});

t.test('transaction types and statuses', async (t) => {
  t.equal((await client.getTransaction({ hash: txs.ethTransfer })).type, 'eip1559');
  t.equal((await client.getTransaction({ hash: txs.ethTransferLegacy })).type, 'legacy');
  t.equal((await client.getTransaction({ hash: txs.ethTransferAccessList })).type, 'eip2930');
  for (const role of ['reverted', 'panicked', 'routerForwardReverted'] as const) {
    t.equal(await status(txs[role]), 'reverted', `${role} has status 0`);
  }
  t.equal(await status(txs.routerSplit), 'success', 'split succeeds despite its failed inner call');
  const ok = Object.entries(txs).filter(([role]) => !['reverted', 'panicked', 'routerForwardReverted'].includes(role));
  for (const [role, hash] of ok) t.equal(await status(hash), 'success', role);
});

t.test('revert reason via eth_call replay', async (t) => {
  const tx = await client.getTransaction({ hash: txs.reverted });
  const res = await client.request({
    method: 'eth_call',
    params: [{ from: tx.from, to: tx.to ?? undefined, data: tx.input }, 'latest'],
  }).catch((e: unknown) => e);
  const data = findRevertData(res);
  t.ok(data, 'revert data present');
  if (data) {
    const decoded = decodeErrorResult({ data });
    t.equal(decoded.errorName, 'Error');
    t.same(decoded.args, [facts.revertReasons.reverted]);
  }
});

t.test('ERC-20 balances', async (t) => {
  const e18 = 10n ** 18n;
  t.equal(await read(c.token, 'DemoToken', 'balanceOf', [a.deployer]), 900n * e18 - 1n - 2n);
  t.equal(await read(c.token, 'DemoToken', 'balanceOf', [a.alice]), 70n * e18);
  t.equal(await read(c.token, 'DemoToken', 'balanceOf', [a.bob]), 3n);
  t.equal(await read(c.token, 'DemoToken', 'balanceOf', [a.carol]), 20n * e18);
  t.equal(await read(c.token, 'DemoToken', 'totalSupply'), 990n * e18);
  t.equal(await read(c.token, 'DemoToken', 'allowance', [a.alice, a.bob]), 10n * e18);
  t.equal(await read(c.token, 'DemoToken', 'decimals'), 18);
  t.equal(await read(c.token, 'DemoToken', 'symbol'), 'SCT');
});

t.test('ERC-721 owners and metadata', async (t) => {
  t.equal(facts.tokenIds.nft.big, BIG_NFT_ID);
  t.ok(BIG_NFT_ID > BigInt(Number.MAX_SAFE_INTEGER));
  t.equal(await read(c.nft, 'DemoNFT', 'ownerOf', [BIG_NFT_ID]), a.carol, 'big id owner');
  t.equal(await read(c.nft, 'DemoNFT', 'ownerOf', [1n]), a.bob);
  t.equal(await read(c.nft, 'DemoNFT', 'ownerOf', [2n]), a.alice);
  await t.rejects(read(c.nft, 'DemoNFT', 'ownerOf', [3n]), 'burned token has no owner');
  for (const id of facts.tokenIds.roundNfts) t.equal(await read(c.nft, 'DemoNFT', 'ownerOf', [id]), a.dave);
  t.equal(await read(c.nft, 'DemoNFT', 'balanceOf', [a.alice]), 1n);
  t.equal(await read(c.nft, 'DemoNFT', 'balanceOf', [a.bob]), 1n);
  for (const id of ['0x01ffc9a7', '0x80ac58cd', '0x5b5e139f']) t.equal(await read(c.nft, 'DemoNFT', 'supportsInterface', [id]), true, id);
  t.equal(await read(c.nft, 'DemoNFT', 'supportsInterface', ['0xd9b67a26']), false);
  const uri = String(await read(c.nft, 'DemoNFT', 'tokenURI', [BIG_NFT_ID]));
  const prefix = 'data:application/json;base64,';
  t.ok(uri.startsWith(prefix));
  const meta = JSON.parse(Buffer.from(uri.slice(prefix.length), 'base64').toString('utf8')) as Record<string, string>;
  t.equal(meta['name'], `Scout NFT #${BIG_NFT_ID}`);
  t.match(meta['image'], /^data:image\/svg\+xml;base64,/);
});

t.test('ERC-1155 balances', async (t) => {
  const bal = (who: Address, id: bigint): Promise<unknown> => read(c.multi, 'DemoMulti', 'balanceOf', [who, id]);
  t.equal(await bal(a.alice, 1n), 70n);
  t.equal(await bal(a.bob, 1n), 25n);
  t.equal(await bal(a.alice, 2n), 40n);
  t.equal(await bal(a.alice, 3n), 50n);
  t.equal(await bal(a.carol, 2n), 10n);
  t.equal(await bal(a.carol, 3n), 20n);
  t.same(await read(c.multi, 'DemoMulti', 'balanceOfBatch', [[a.alice, a.carol], [2n, 3n]]), [40n, 20n]);
  t.equal(await read(c.multi, 'DemoMulti', 'supportsInterface', ['0xd9b67a26']), true);
  t.match(String(await read(c.multi, 'DemoMulti', 'uri', [1n])), /^data:application\/json;base64,/);
});

t.test('internal transactions with value', async (t) => {
  t.equal(await client.getBalance({ address: a.fresh }), parseEther('0.5'), 'fresh address paid only by the router');
  t.equal(await client.getBalance({ address: c.router }), 0n);
  t.equal(await client.getTransactionCount({ address: a.fresh }), 0);
  const trace = (await rpc('debug_traceTransaction', [txs.routerSplit, { tracer: 'callTracer' }])) as CallFrame;
  const calls = trace.calls ?? [];
  t.equal(calls.length, 3, 'three inner calls');
  t.same(calls.slice(0, 2).map((x) => BigInt(x.value ?? '0x0')), [parseEther('0.5'), parseEther('0.5')]);
  t.ok(calls[2]?.error, 'third inner call failed');
  t.equal(trace.error, undefined, 'outer call succeeded');
});

t.test('contracts created by a contract', async (t) => {
  const code = await client.getCode({ address: c.createdToken });
  t.ok(code && code.length > 2, 'created token has code');
  t.equal(await read(c.createdToken, 'DemoToken', 'decimals'), 6);
  t.equal(await read(c.createdToken, 'DemoToken', 'owner'), a.dave);
  t.equal(await read(c.createdToken, 'DemoToken', 'balanceOf', [a.alice]), 250n * 10n ** 6n);
  t.equal(await read(c.created2Token, 'DemoToken', 'symbol'), 'SLT');
  t.equal(c.createdToken, getContractAddress({ from: c.factory, nonce: 1n }), 'CREATE address from the factory nonce');
  t.ok((await client.getCode({ address: c.created2Token }))?.length, 'CREATE2 token has code');
  t.match(CREATE2_SALT, /^0x[0-9a-f]{64}$/);
});

t.test('fillChain adds mixed transactions on top of the scenario', async (t) => {
  const before = await client.getBlockNumber();
  const filled = await fillChain(anvil.url, { transactions: 300, perBlock: 50 });
  t.equal(filled.transactions, 300);
  t.equal(filled.fromBlock, before + 1n);
  let total = 0;
  let failed = 0;
  for (let b = filled.fromBlock; b <= filled.toBlock; b++) {
    const receipts = await client.request({ method: 'eth_getBlockReceipts', params: [`0x${b.toString(16)}`] });
    for (const r of receipts ?? []) {
      total++;
      if (r.status !== '0x1') failed++;
    }
  }
  t.equal(total, 300, 'every transaction mined');
  t.equal(failed, filled.kinds.reverted, 'only the intended reverts failed');
  t.equal(await rpc('anvil_getAutomine', []), true, 'automine restored');
  t.equal(await read(filled.contracts.token, 'DemoToken', 'symbol'), 'BNCH');
});

interface CallFrame {
  readonly value?: Hex;
  readonly error?: string;
  readonly calls?: readonly CallFrame[];
}

async function rpc(method: string, params: readonly unknown[]): Promise<unknown> {
  const res = await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

function findRevertData(e: unknown): Hex | undefined {
  for (let cur: unknown = e, depth = 0; cur && typeof cur === 'object' && depth < 10; depth++) {
    const rec = cur as { data?: unknown; cause?: unknown };
    if (typeof rec.data === 'string' && rec.data.startsWith('0x') && rec.data.length > 10) return rec.data as Hex;
    cur = rec.cause;
  }
  return undefined;
}
