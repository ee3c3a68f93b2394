/**
 * The kept coin supply against the node: `stats/ethsupply` must be Σ eth_getBalance (at the
 * node's head) over the addresses the store holds a positive current balance for, and every
 * such address must hold that balance on the node; `stats/coinsupply` is that less the zero
 * address's balance, in whole coins.
 */
import type { Test } from 'tap';
import { createExplorer } from '../../lib/index.ts';
import type { AccountCursor, VersionedDataSource } from '../../lib/ports.ts';
import { rpc } from './helpers.ts';

const ZERO = '0x0000000000000000000000000000000000000000';

export async function checkSupplyAgainstNode(t: Test, url: string, store: VersionedDataSource, label: string): Promise<void> {
  const held: { address: string; balance: bigint }[] = [];
  for (let after = null as AccountCursor | null; ; ) {
    const page = await store.listAccounts({ sort: 'balance' }, { after, limit: 100, order: 'desc' });
    held.push(...page);
    const last = page.at(-1);
    if (page.length < 100 || last === undefined) break;
    after = last;
  }
  let sum = 0n;
  let zero = 0n;
  let agree = true;
  for (const { address, balance } of held) {
    const onNode = BigInt((await rpc(url, 'eth_getBalance', [address, 'latest'])) as string);
    if (onNode !== balance) agree = false;
    sum += onNode;
    if (address === ZERO) zero = onNode;
  }
  t.ok(held.length > 0 && agree, `${label}: the ${held.length} positive balances held = eth_getBalance`);
  const explorer = createExplorer({ chains: { '1': store } });
  const ask = async (action: string) => (await explorer.handle({ path: '/api', query: { module: 'stats', action } })).body as unknown;
  t.same(await ask('ethsupply'), { status: '1', message: 'OK', result: sum.toString() }, `${label}: ethsupply = Σ eth_getBalance over the recorded addresses`);
  const coins = (sum - zero).toString().padStart(19, '0');
  t.equal(await ask('coinsupply'), Number.parseFloat(`${coins.slice(0, -18)}.${coins.slice(-18)}`), `${label}: coinsupply = that less the zero address (${zero} wei), in coins`);
}
