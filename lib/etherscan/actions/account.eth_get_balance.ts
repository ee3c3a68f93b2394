/**
 * `account/eth_get_balance`: `address` → `block` (`latest` default, `earliest`, `pending` or a
 * decimal number) → a JSON-RPC shaped body `{jsonrpc, result: "0x…", id: 0}`, as Blockscout's:
 * the newest coin balance recorded at or below the block (`latest`: the current balance;
 * `earliest`: the one recorded at block 0; `pending`: one recorded above the head, which a store
 * of consensus blocks never holds). Errors are a string `error`: 400 `Invalid address hash` /
 * `Invalid block`, 404 `Balance not found`. A missing `address` is 400 `Query parameter
 * 'address' is required` (Blockscout's own view fails there with a 500).
 */
import type { Address } from '../../domain/records.ts';
import type { JsonValue } from '../../json.ts';
import type { DataSource } from '../../ports.ts';
import type { EtherscanAction, EtherscanAnswer } from '../action.ts';
import { isAddress, param, requiredMessage } from '../params.ts';
import { ADDRESS } from '../paramDocs.ts';

const answer = (status: number, outcome: { readonly result: JsonValue } | { readonly error: string }): EtherscanAnswer => ({
  status,
  body: { jsonrpc: '2.0', ...outcome, id: 0 },
});

type Block = 'latest' | 'earliest' | 'pending' | number;

function blockOf(raw: string | undefined): Block | null {
  if (raw === undefined || raw === 'latest') return 'latest';
  if (raw === 'earliest' || raw === 'pending') return raw;
  return /^-?\d{1,15}$/.test(raw) ? Number(raw) : null;
}

async function balanceAt(ds: DataSource, address: Address, block: Block): Promise<bigint | null> {
  if (block === 'latest') return (await ds.getCoinBalances([address]))[0]?.value ?? null;
  if (block === 'pending') return null;
  const at = block === 'earliest' ? 0 : block;
  if (at < 0) return null;
  const [row] = await ds.listCoinBalances({ address, blocks: { to: at } }, { after: null, limit: 1, order: 'desc' });
  return row === undefined || (block === 'earliest' && row.blockNumber !== 0) ? null : row.value;
}

export const eth_get_balance: EtherscanAction = {
  module: 'account',
  action: 'eth_get_balance',
  summary: 'The coin balance of an address at a block (a JSON-RPC shaped body)',
  params: [ADDRESS, { name: 'block', description: '`latest` (default), `earliest`, `pending` or a block number', example: 'blockNumber' }],
  shape: 'json-rpc',
  async run(ctx, query) {
    const raw = param(query, 'address');
    if (raw === undefined) return answer(400, { error: requiredMessage('address') });
    const block = blockOf(param(query, 'block'));
    if (block === null) return answer(400, { error: 'Invalid block' });
    if (!isAddress(raw)) return answer(400, { error: 'Invalid address hash' });
    const balance = await balanceAt(ctx.ds, raw.toLowerCase() as Address, block);
    return balance === null ? answer(404, { error: 'Balance not found' }) : answer(200, { result: `0x${balance.toString(16)}` });
  },
};
