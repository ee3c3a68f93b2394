/**
 * Transactions the demo scenario does not send, for the parity converters' test: every way a frame
 * can fail (INVALID, an undefined opcode, a bad jump, stack underflow, out of gas, insufficient
 * balance, a write in a static call), every call type, a call to a precompile, SELFDESTRUCT (of a
 * live contract, and in the init code of a contract created and destroyed at once), creations that
 * fail, a creation with value, failures of the top frame, storage written, cleared and in an
 * EIP-1967 slot by an account holding coin — several transactions to a block. The contracts are a
 * few bytes of hand-written EVM code each, deployed from anvil's unlocked account 5.
 */
import type { Address, Hash, Hex } from '../../../lib/domain/records.ts';
import { hex } from '../../../lib/domain/hex.ts';

type Call = (method: string, params: readonly unknown[]) => Promise<unknown>;

export function rpc(url: string): Call {
  let id = 0;
  return async (method, params) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
}

const hex2 = (n: number, bytes: number): string => n.toString(16).padStart(bytes * 2, '0');
const word = (v: bigint | string): string => (typeof v === 'bigint' ? v.toString(16) : v.replace(/^0x/, '')).padStart(64, '0');

/** Init code returning `runtime` as the contract's code. */
const deployable = (runtime: string): Hex => {
  const size = hex2(runtime.length / 2, 2);
  // PUSH2 size PUSH2 15 PUSH1 0 CODECOPY PUSH2 size PUSH1 0 RETURN, then the runtime (at 15)
  return `0x61${size}61000f60003961${size}6000f3${runtime}` as Hex;
};

const OPS = { CALL: 'f1', CALLCODE: 'f2', DELEGATECALL: 'f4', STATICCALL: 'fa' } as const;

/**
 * Calls calldata[0:32] with gas calldata[32:64] (value calldata[64:96] for CALL and CALLCODE)
 * and input calldata[96:], whatever its outcome, and returns what it returned.
 */
function forwarder(op: keyof typeof OPS): string {
  const valued = op === 'CALL' || op === 'CALLCODE';
  return [
    '606036' + '03', // len = CALLDATASIZE - 96
    '80' + '6060' + '6000' + '37', // CALLDATACOPY(0, 96, len)
    '6000' + '6000' + '82' + '6000', // retSize 0, retOffset 0, argsSize len, argsOffset 0
    valued ? '604035' : '', // value
    '600035' + '602035', // address, gas
    OPS[op],
    '3d6000600037' + '3d6000f3', // RETURNDATACOPY(0, 0, size) RETURN(0, size)
  ].join('');
}

/** CREATE (or CREATE2 with salt 0x5c) of calldata as init code with the call's value; returns the address word. */
const creator = (create2: boolean): string =>
  '366000600037' + (create2 ? '605c' : '') + '36600034' + (create2 ? 'f5' : 'f0') + '600052' + '60206000f3';

const LEAVES = {
  invalid: 'fe',
  undefinedOpcode: '0c',
  badJump: '600056',
  stackUnderflow: '01',
  loop: '5b600056',
  /** SSTORE(calldata[0:32], calldata[32:64]) */
  store: '602035600035' + '55' + '00',
  /** SELFDESTRUCT to the caller */
  destroy: '33ff',
  /** revert with the custom error 0xdeadbeef */
  customError: '63deadbeef60e01b600052' + '60046000fd',
  emptyRevert: '60006000fd',
} as const;

export const EIP1967_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';

export interface ParityCases {
  /** every transaction sent, by name */
  readonly txs: Readonly<Record<string, Hash>>;
  readonly contracts: Readonly<Record<string, Address>>;
  /** the blocks the cases were mined in, several transactions each */
  readonly blocks: readonly number[];
}

export async function runParityCases(url: string): Promise<ParityCases> {
  const call = rpc(url);
  const accounts = (await call('eth_accounts', [])) as Address[];
  const from = accounts[5] as Address;
  let nonce = Number(BigInt((await call('eth_getTransactionCount', [from, 'latest'])) as string));
  const txs: Record<string, Hash> = {};
  const send = async (name: string, tx: { to?: Address; data?: Hex; value?: bigint; gas?: number }): Promise<Hash> => {
    const hash = (await call('eth_sendTransaction', [
      {
        from,
        ...(tx.to === undefined ? {} : { to: tx.to }),
        data: tx.data ?? '0x',
        value: `0x${(tx.value ?? 0n).toString(16)}`,
        gas: `0x${(tx.gas ?? 300_000).toString(16)}`,
        nonce: `0x${(nonce++).toString(16)}`,
      },
    ])) as Hash;
    txs[name] = hash;
    return hash;
  };
  const receipt = async (hash: Hash): Promise<{ contractAddress: Address | null; blockNumber: string; status: string }> => {
    const r = (await call('eth_getTransactionReceipt', [hash])) as { contractAddress: Address | null; blockNumber: string; status: string } | null;
    if (r === null) throw new Error(`parity cases: ${hash} was not mined`);
    return r;
  };

  // one block: every contract deployed
  await call('evm_setAutomine', [false]);
  const code: Record<string, string> = {
    ...LEAVES,
    callForwarder: forwarder('CALL'),
    callcodeForwarder: forwarder('CALLCODE'),
    delegateForwarder: forwarder('DELEGATECALL'),
    staticForwarder: forwarder('STATICCALL'),
    creator: creator(false),
    creator2: creator(true),
  };
  const deploys: [string, Hash][] = [];
  for (const [name, runtime] of Object.entries(code)) deploys.push([name, await send(`deploy ${name}`, { data: deployable(runtime) })]);
  await call('evm_mine', []);
  const c: Record<string, Address> = {};
  for (const [name, hash] of deploys) {
    const r = await receipt(hash);
    if (r.contractAddress === null) throw new Error(`parity cases: ${name} not created`);
    c[name] = r.contractAddress.toLowerCase() as Address;
  }
  const at = (name: string): Address => c[name] as Address;
  const via = (target: Address, gas: number, input = '', value = 0n): Hex => `0x${word(target)}${word(BigInt(gas))}${word(value)}${input}` as Hex;
  const store = (slot: string, value: bigint | string): string => word(slot) + word(value);

  // one block: every failure and call type
  await send('fund forwarder', { to: at('callForwarder'), data: via(at('emptyRevert'), 50_000), value: 10n ** 18n });
  await send('fund store', { to: at('store'), value: 3n * 10n ** 17n });
  for (const leaf of ['invalid', 'undefinedOpcode', 'badJump', 'stackUnderflow', 'customError', 'emptyRevert'] as const) {
    await send(`call ${leaf}`, { to: at('callForwarder'), data: via(at(leaf), 50_000) });
  }
  await send('call loop (out of gas)', { to: at('callForwarder'), data: via(at('loop'), 30_000) });
  await send('call with value it lacks', { to: at('callForwarder'), data: via(at('store'), 50_000, store('0x1', 1n), 10n ** 24n) });
  await send('call destroy with value', { to: at('callForwarder'), data: via(at('destroy'), 50_000, '', 5n) });
  await send('callcode store', { to: at('callcodeForwarder'), data: via(at('store'), 50_000, store('0x2', 9n)) });
  await send('delegatecall store', { to: at('delegateForwarder'), data: via(at('store'), 50_000, store('0x3', 8n)) });
  await send('staticcall store (write protection)', { to: at('staticForwarder'), data: via(at('store'), 50_000, store('0x4', 7n)) });
  await send('staticcall identity precompile', { to: at('staticForwarder'), data: via('0x0000000000000000000000000000000000000004' as Address, 50_000, 'cafebabe') });
  await send('create invalid', { to: at('creator'), data: `0x${LEAVES.invalid}` as Hex });
  await send('create reverting', { to: at('creator'), data: `0x${LEAVES.customError}` as Hex });
  await send('create destroyed at once', { to: at('creator'), data: `0x${LEAVES.destroy}` as Hex, value: 11n });
  await send('create with value', { to: at('creator'), data: hex('0x00'), value: 13n });
  await send('create2 a store', { to: at('creator2'), data: deployable(LEAVES.store) });
  await send('top-level out of gas', { to: at('loop'), gas: 60_000 });
  await send('top-level invalid', { to: at('invalid'), gas: 60_000 });
  await send('top-level creation failing', { data: `0x${LEAVES.invalid}` as Hex, gas: 100_000 });
  await send('top-level creation reverting', { data: `0x${LEAVES.customError}` as Hex, gas: 100_000 });
  await send('destroy directly', { to: at('destroy'), value: 17n });
  await call('evm_mine', []);

  // a block of its own: storage of an account holding coin written, its balance unchanged
  await send('store a slot', { to: at('store'), data: `0x${store('0x1', 7n)}` as Hex });
  await send('store an EIP-1967 implementation', { to: at('store'), data: `0x${store(EIP1967_SLOT, at('invalid'))}` as Hex });
  await call('evm_mine', []);
  // and one more: both slots cleared
  await send('clear a slot', { to: at('store'), data: `0x${store('0x1', 0n)}` as Hex });
  await send('clear the EIP-1967 slot', { to: at('store'), data: `0x${store(EIP1967_SLOT, 0n)}` as Hex });
  await call('evm_mine', []);
  await call('evm_setAutomine', [true]);

  const blocks = new Set<number>();
  for (const hash of Object.values(txs)) blocks.add(Number(BigInt((await receipt(hash)).blockNumber)));
  return { txs, contracts: c, blocks: [...blocks].sort((a, b) => a - b) };
}
