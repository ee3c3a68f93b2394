/**
 * /advanced-filters against a real node: index the demo scenario from anvil into every store,
 * then for several addresses the merged stream (from or to the address) equals the union of
 * what the node itself says — the address's transactions (blocks), internal transactions
 * (callTracer frames, depth-first, the top call left out unless it creates) and token transfer
 * entries (receipt logs, an ERC-1155 batch one entry per id) — each exactly once, in order.
 */
import t from 'tap';
import { createPublicClient, decodeEventLog, http, parseAbi } from 'viem';
import type { Address, Hash } from '../../lib/domain/records.ts';
import { createExplorer } from '../../lib/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import type { Anvil } from '../../demo/anvil.ts';
import { runScenario } from '../../demo/scenario.ts';
import type { ScenarioFacts } from '../../demo/scenario.ts';
import { storeFactories } from '../support/stores.ts';
import { asQuery } from '../support/explorer.ts';
import { indexerFor } from './helpers.ts';

const EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);

interface Frame {
  readonly type: string;
  readonly from: string;
  readonly to?: string;
  readonly calls?: readonly Frame[];
}

const lc = (a: string): Address => a.toLowerCase() as Address;

let anvil: Anvil;
let facts: ScenarioFacts;

t.before(async () => {
  anvil = await startAnvil();
  facts = await runScenario(anvil.url, { rounds: 1 });
});
t.teardown(async () => {
  await anvil?.stop();
});

/** One item of the node's union, as `kind|hash|from|to`. */
async function nodeItems(): Promise<string[]> {
  const client = createPublicClient({ transport: http(anvil.url) });
  const head = await client.getBlockNumber();
  const out: string[] = [];
  for (let n = 0n; n <= head; n++) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      out.push(`transaction|${tx.hash}|${lc(tx.from)}|${tx.to === null ? '' : lc(tx.to)}`);
      const receipt = await client.getTransactionReceipt({ hash: tx.hash });
      for (const log of receipt.logs) {
        // both Transfer events share topic0: try each event on its own (ERC-721 indexes the id)
        const decoded = EVENTS.map((e) => {
          try {
            return decodeEventLog({ abi: [e], data: log.data, topics: log.topics });
          } catch {
            return null;
          }
        }).find((d) => d !== null);
        if (decoded === undefined || decoded === null) continue;
        const args = decoded.args as { from: string; to: string; ids?: readonly bigint[] };
        const entries = decoded.eventName === 'TransferBatch' ? Math.max(1, args.ids?.length ?? 1) : 1;
        for (let i = 0; i < entries; i++) out.push(`transfer|${tx.hash}|${lc(args.from)}|${lc(args.to)}`);
      }
      const top = (await client.request({
        method: 'debug_traceTransaction' as 'eth_chainId',
        params: [tx.hash, { tracer: 'callTracer' }] as unknown as undefined,
      })) as unknown as Frame;
      const frames: Frame[] = [];
      const visit = (f: Frame): void => {
        frames.push(f);
        for (const c of f.calls ?? []) visit(c);
      };
      visit(top);
      frames.forEach((f, index) => {
        const create = f.type.startsWith('CREATE');
        if (index === 0 && !create) return;
        out.push(`internal|${tx.hash}|${lc(f.from)}|${create || f.to === undefined ? '' : lc(f.to)}`);
      });
    }
  }
  return out;
}

t.test('advanced filters for an address = its transactions, internal transactions and transfers on the node, each once', async (t) => {
  const union = await nodeItems();
  const addresses = [facts.accounts.alice, facts.accounts.deployer, facts.accounts.fresh, facts.contracts.router, facts.contracts.factory, facts.contracts.multi];
  for (const factory of await storeFactories()) {
    await t.test(factory.name, async (t) => {
      const store = await factory.open();
      t.teardown(() => store.close());
      await indexerFor(anvil.url, store).run();
      const api = createExplorer({ chains: { '1': store } });
      const walk = async (query: Record<string, string>) => {
        const items: Record<string, unknown>[] = [];
        let next: Record<string, string> | null = {};
        while (next !== null) {
          const r = await api.handle({ path: '/api/v2/advanced-filters', query: { ...query, ...next } });
          if (r.status !== 200) throw new Error(`advanced-filters → ${r.status}`);
          const body = r.body as unknown as { items: Record<string, unknown>[]; next_page_params: Record<string, unknown> | null };
          items.push(...body.items);
          next = body.next_page_params === null ? null : asQuery(body.next_page_params);
        }
        return items;
      };
      let total = 0;
      for (const address of addresses) {
        const a = lc(address);
        const expected = union.filter((x) => {
          const [, , from, to] = x.split('|');
          return from === a || to === a;
        });
        const query = { from_address_hashes_to_include: address, to_address_hashes_to_include: address };
        const small = await walk({ ...query, items_count: '4' });
        const normal = await walk(query);
        const kindOf = (i: Record<string, unknown>) =>
          i['internal_transaction_index'] !== null ? 'internal' : i['token_transfer_index'] !== null ? 'transfer' : 'transaction';
        const hashOf = (v: unknown) => (v === null ? '' : lc((v as { hash: string }).hash));
        const got = small.map((i) => `${kindOf(i)}|${i['hash'] as Hash}|${hashOf(i['from'])}|${hashOf(i['to'])}`);
        const ids = small.map((i) =>
          [i['block_number'], i['transaction_index'], i['internal_transaction_index'], i['token_transfer_index'], i['token_transfer_batch_index']].join(':'),
        );
        t.ok(expected.length > 0, `${address}: the node has ${expected.length} items`);
        t.equal(new Set(ids).size, ids.length, `${address}: each item once`);
        const rank = (i: Record<string, unknown>) => (kindOf(i) === 'transaction' ? 2 : kindOf(i) === 'transfer' ? 1 : 0);
        const key = (i: Record<string, unknown>) => [
          i['block_number'] as number,
          i['transaction_index'] as number,
          rank(i),
          (i['internal_transaction_index'] ?? i['token_transfer_index'] ?? 0) as number,
          (i['token_transfer_batch_index'] ?? 0) as number,
        ];
        const descending = small.every((i, n) => {
          if (n === 0) return true;
          const [a, b] = [key(small[n - 1] as Record<string, unknown>), key(i)];
          const d = a.findIndex((x, j) => x !== b[j]);
          return d >= 0 && (a[d] as number) > (b[d] as number);
        });
        t.ok(descending, `${address}: in Blockscout's order`);
        t.same([...got].sort(), [...expected].sort(), `${address}: the union of transactions, internal transactions and transfers`);
        // the fee shows once per run of a transaction on a page, so it may differ at page ends
        const noFee = (xs: Record<string, unknown>[]) => xs.map(({ fee: _fee, ...rest }) => rest);
        t.same(noFee(normal), noFee(small), `${address}: the same items at page sizes 4 and 50`);
        total += expected.length;
      }
      t.ok(total >= 50, `${total} items checked`);
    });
  }
});
