/**
 * What a user sees of an indexed scenario, for comparing rungs of the tracing ladder and nodes:
 * per transaction its internal transactions and detail flags, per address its coin balance
 * (exact view only: gas prices differ between nodes), contract facts and proxy. `exact` keeps every field (the same chain indexed on two rungs);
 * otherwise hashes become positions in the scenario and per-chain fields (block hashes,
 * timestamps, gas prices) are dropped, so two nodes running the same deterministic scenario compare.
 */
import { createExplorer, toJson } from '../../lib/index.ts';
import type { DataSource } from '../../lib/ports.ts';

type Json = Record<string, unknown>;

export interface ViewInput {
  readonly transactions: readonly string[];
  readonly addresses: readonly string[];
}

async function getter(store: DataSource): Promise<(path: string) => Promise<{ status: number; body: Json }>> {
  const api = createExplorer({ chains: { '1': store } });
  return async (path) => {
    const r = await api.handle({ path: `/api/v2${path}` });
    return { status: r.status, body: JSON.parse(toJson(r.body)) as Json };
  };
}

/** every field of what a user reads (same chain) */
export async function exactView(store: DataSource, input: ViewInput): Promise<Json> {
  const get = await getter(store);
  const out: Json = {};
  for (const h of input.transactions) {
    out[`tx ${h}`] = (await get(`/transactions/${h}`)).body;
    out[`internal ${h}`] = (await get(`/transactions/${h}/internal-transactions`)).body;
    out[`state ${h}`] = (await get(`/transactions/${h}/state-changes`)).body;
    out[`raw ${h}`] = await get(`/transactions/${h}/raw-trace`);
  }
  for (const a of input.addresses) {
    out[`address ${a}`] = await get(`/addresses/${a}`);
    out[`balances ${a}`] = (await get(`/addresses/${a}/coin-balance-history`)).body;
  }
  return out;
}

const short = (a: unknown): unknown => (a !== null && typeof a === 'object' ? (a as Json)['hash'] : a);

/** the same facts across chains: hashes as positions, per-chain fields left out */
export async function portableView(store: DataSource, input: ViewInput, options: { gas: boolean }): Promise<Json> {
  const get = await getter(store);
  const position = new Map(input.transactions.map((h, i) => [h.toLowerCase(), `tx#${i}`]));
  const tx = (h: unknown): unknown => (typeof h === 'string' ? (position.get(h.toLowerCase()) ?? h) : h);
  const out: Json = {};
  for (const h of input.transactions) {
    const detail = (await get(`/transactions/${h}`)).body;
    out[`tx ${tx(h) as string}`] = { status: detail['status'], result: detail['result'], has_error_in_internal_transactions: detail['has_error_in_internal_transactions'], created_contract: short(detail['created_contract']) };
    const internal = ((await get(`/transactions/${h}/internal-transactions`)).body['items'] as Json[]).map((i) => ({
      index: i['index'],
      type: i['type'],
      call_type: i['call_type'],
      from: short(i['from']),
      to: short(i['to']),
      created_contract: short(i['created_contract']),
      value: i['value'],
      success: i['success'],
      error: i['error'],
      ...(options.gas ? { gas_limit: i['gas_limit'] } : {}),
    }));
    out[`internal ${tx(h) as string}`] = internal;
  }
  for (const a of input.addresses) {
    const { status, body } = await get(`/addresses/${a}`);
    out[`address ${a}`] =
      status !== 200
        ? { status }
        : {
            is_contract: body['is_contract'],
            creator_address_hash: body['creator_address_hash'],
            creation_transaction_hash: tx(body['creation_transaction_hash']),
            proxy_type: body['proxy_type'],
            implementations: body['implementations'],
          };
  }
  return out;
}

/** each address's coin balance as served (null where the address is unknown) */
export async function servedBalances(store: DataSource, addresses: readonly string[]): Promise<Map<string, string | null>> {
  const get = await getter(store);
  const out = new Map<string, string | null>();
  for (const a of addresses) {
    const { status, body } = await get(`/addresses/${a}`);
    out.set(a, status === 200 ? (body['coin_balance'] as string | null) : null);
  }
  return out;
}
