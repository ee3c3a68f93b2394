/**
 * Fill an anvil chain with many mixed transactions quickly, for benchmarks. Deploys its own
 * contracts (sequentially), then sends the bulk from anvil's unlocked default accounts with
 * `eth_sendTransaction` in JSON-RPC batches, managing nonces itself, and mines one block per
 * batch with `evm_mine` (automine is switched off meanwhile and restored at the end). The
 * transactions are deterministic: the same chain state and options give the same transactions.
 * Anvil only (unlocked accounts, evm_mine, anvil_getAutomine).
 */
import { encodeFunctionData, getAddress, parseGwei } from 'viem';
import type { Address, Hash, Hex } from 'viem';
import { CONTRACTS } from './artifacts.ts';
import type { CompiledContracts } from './artifacts.ts';
import { artifact, connect } from './scenario.ts';
import type { Reader, Wallet } from './scenario.ts';

export type FillKind =
  | 'eth' | 'ethLegacy' | 'erc20Transfer' | 'erc20Approve' | 'erc721Mint' | 'erc721MintBig'
  | 'erc1155Single' | 'erc1155Batch' | 'routerSplit' | 'reverted' | 'factoryCreate';

/** One cycle of 32 kinds; transaction k has kind CYCLE[k % 32]. */
const CYCLE: readonly FillKind[] = [
  'eth', 'erc20Transfer', 'erc1155Single', 'erc721Mint', 'ethLegacy', 'erc20Transfer', 'routerSplit', 'erc1155Batch',
  'eth', 'erc20Approve', 'erc20Transfer', 'erc721Mint', 'erc1155Single', 'eth', 'erc20Transfer', 'reverted',
  'eth', 'erc20Transfer', 'erc1155Single', 'erc721MintBig', 'ethLegacy', 'erc20Transfer', 'routerSplit', 'erc1155Batch',
  'eth', 'erc20Approve', 'erc20Transfer', 'erc721Mint', 'erc1155Single', 'eth', 'erc20Transfer', 'factoryCreate',
];

const GAS: Record<FillKind, bigint> = {
  eth: 21_000n, ethLegacy: 21_000n, erc20Transfer: 80_000n, erc20Approve: 60_000n,
  erc721Mint: 120_000n, erc721MintBig: 120_000n, erc1155Single: 90_000n, erc1155Batch: 150_000n,
  routerSplit: 150_000n, reverted: 60_000n, factoryCreate: 1_500_000n,
};

export interface FillOptions {
  /** How many transactions to add (setup included). */
  readonly transactions: number;
  /** Transactions per mined block (default 200). */
  readonly perBlock?: number;
  /** Called after every block with the number of transactions sent so far. */
  readonly onProgress?: (sent: number, total: number) => void;
}

export interface FillResult {
  /** Transactions added, setup included (= options.transactions, or the setup count if larger). */
  readonly transactions: number;
  readonly setupTransactions: number;
  /** First and last block holding the transactions of this fill. */
  readonly fromBlock: bigint;
  readonly toBlock: bigint;
  readonly contracts: { readonly token: Address; readonly nft: Address; readonly multi: Address; readonly router: Address; readonly reverter: Address; readonly factory: Address };
  readonly kinds: Readonly<Record<FillKind, number>>;
}

const ACCOUNTS = 10;
const MAX_FEE = parseGwei('20');
const TIP = parseGwei('1');
const hex = (n: bigint | number): Hex => `0x${n.toString(16)}`;

export async function fillChain(rpcUrl: string, options: FillOptions): Promise<FillResult> {
  const perBlock = Math.max(1, options.perBlock ?? 200);
  const compiled = CONTRACTS;
  const clients = await connect(rpcUrl, ACCOUNTS);
  const { reader, wallets } = clients;
  const rpc = jsonRpc(rpcUrl);
  const deployer = wallets[0];
  const addresses = wallets.map((w) => w.account.address);
  const fromBlock = (await reader.getBlockNumber({ cacheTime: 0 })) + 1n;

  // Setup, sequential: 6 contracts, an ERC-20 and ERC-1155 stock for every account.
  let setup = 0;
  const deploy = async (name: string, args: readonly unknown[]): Promise<Address> => {
    const { abi, bytecode } = artifact(compiled, name);
    const hash = await deployer.deployContract({ abi, bytecode, args });
    const receipt = await confirmed(reader, hash);
    setup++;
    if (!receipt.contractAddress) throw new Error(`fillChain: deploy ${name} created no contract`);
    return getAddress(receipt.contractAddress);
  };
  const token = await deploy('DemoToken', ['Bench Token', 'BNCH', 18, deployer.account.address, 0n]);
  const nft = await deploy('DemoNFT', ['Bench NFT', 'BNFT']);
  const multi = await deploy('DemoMulti', []);
  const router = await deploy('Router', []);
  const reverter = await deploy('Reverter', []);
  const factory = await deploy('TokenFactory', []);
  const data = encoder(compiled);
  for (const to of addresses) {
    await send(deployer, reader, token, data('DemoToken', 'mint', [to, 10n ** 27n]));
    await send(deployer, reader, multi, data('DemoMulti', 'mintBatch', [to, [1n, 2n, 3n, 4n, 5n], [10n ** 9n, 10n ** 9n, 10n ** 9n, 10n ** 9n, 10n ** 9n]]));
    setup += 2;
  }

  // Bulk. NFT ids carry a salt from the start block, so that fills never collide.
  const salt = BigInt(fromBlock) << 32n;
  const nonces = await Promise.all(addresses.map((address) => reader.getTransactionCount({ address, blockTag: 'pending' })));
  const failData = data('Reverter', 'fail', []);
  const kinds = Object.fromEntries(Object.keys(GAS).map((k) => [k, 0])) as Record<FillKind, number>;
  const bulk = Math.max(0, options.transactions - setup);
  const hashes: Hash[] = [];
  const wasAutomine = (await rpc('anvil_getAutomine', [])) === true;
  if (wasAutomine) await rpc('evm_setAutomine', [false]);
  try {
    for (let start = 0; start < bulk; start += perBlock) {
      const batch: unknown[] = [];
      for (let k = start; k < Math.min(bulk, start + perBlock); k++) {
        const kind = CYCLE[k % CYCLE.length];
        kinds[kind]++;
        const mints = kind === 'erc721Mint' || kind === 'erc721MintBig';
        const s = mints ? 0 : k % ACCOUNTS;
        const from = addresses[s];
        const next = addresses[(s + 1 + (k % (ACCOUNTS - 1))) % ACCOUNTS];
        const other = addresses[(s + 2 + (k % (ACCOUNTS - 2))) % ACCOUNTS];
        const kk = BigInt(k);
        const tx: Record<string, Hex | Address> = { from, gas: hex(GAS[kind]), nonce: hex(nonces[s]++) };
        if (kind === 'ethLegacy') tx['gasPrice'] = hex(MAX_FEE);
        else Object.assign(tx, { maxFeePerGas: hex(MAX_FEE), maxPriorityFeePerGas: hex(TIP) });
        switch (kind) {
          case 'eth':
          case 'ethLegacy':
            Object.assign(tx, { to: next, value: hex(10n ** 12n + kk) });
            break;
          case 'erc20Transfer':
            Object.assign(tx, { to: token, data: data('DemoToken', 'transfer', [next, 10n ** 15n + kk]) });
            break;
          case 'erc20Approve':
            Object.assign(tx, { to: token, data: data('DemoToken', 'approve', [next, kk]) });
            break;
          case 'erc721Mint':
            Object.assign(tx, { to: nft, data: data('DemoNFT', 'mint', [addresses[k % ACCOUNTS], salt + kk]) });
            break;
          case 'erc721MintBig':
            Object.assign(tx, { to: nft, data: data('DemoNFT', 'mint', [addresses[k % ACCOUNTS], 2n ** 200n + salt + kk]) });
            break;
          case 'erc1155Single':
            Object.assign(tx, { to: multi, data: data('DemoMulti', 'safeTransferFrom', [from, next, (kk % 5n) + 1n, 1n, '0x']) });
            break;
          case 'erc1155Batch':
            Object.assign(tx, { to: multi, data: data('DemoMulti', 'safeBatchTransferFrom', [from, next, [1n, 2n, 3n], [1n, 2n, 3n], '0x']) });
            break;
          case 'routerSplit':
            Object.assign(tx, { to: router, value: hex(2n * 10n ** 12n), data: data('Router', 'split', [next, other, reverter, failData]) });
            break;
          case 'reverted':
            Object.assign(tx, { to: reverter, data: failData });
            break;
          case 'factoryCreate':
            Object.assign(tx, { to: factory, data: data('TokenFactory', 'create', [`Bench ${k}`, `B${k}`, 18, 10n ** 24n]) });
            break;
        }
        batch.push(tx);
      }
      const sent = await rpcBatch(rpcUrl, batch.map((tx) => ({ method: 'eth_sendTransaction', params: [tx] })));
      for (const h of sent) hashes.push(h as Hash);
      await rpc('evm_mine', []);
      options.onProgress?.(setup + hashes.length, setup + bulk);
    }
    // Everything mined? (a block may have hit the gas limit)
    for (let attempt = 0; ; attempt++) {
      const missing = await unmined(rpcUrl, hashes);
      if (missing === 0) break;
      if (attempt > 100) throw new Error(`fillChain: ${missing} transactions never mined`);
      await rpc('evm_mine', []);
    }
  } finally {
    if (wasAutomine) await rpc('evm_setAutomine', [true]);
  }
  return {
    transactions: setup + hashes.length,
    setupTransactions: setup,
    fromBlock,
    toBlock: await reader.getBlockNumber({ cacheTime: 0 }),
    contracts: { token, nft, multi, router, reverter, factory },
    kinds,
  };
}

type Encode = (contract: string, functionName: string, args: readonly unknown[]) => Hex;
function encoder(compiled: CompiledContracts): Encode {
  return (contract, functionName, args) => encodeFunctionData({ abi: artifact(compiled, contract).abi, functionName, args });
}

async function confirmed(reader: Reader, hash: Hash): Promise<Awaited<ReturnType<Reader['waitForTransactionReceipt']>>> {
  const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 60_000 });
  if (receipt.status !== 'success') throw new Error(`fillChain: setup transaction ${hash} reverted`);
  return receipt;
}

async function send(wallet: Wallet, reader: Reader, to: Address, data: Hex): Promise<void> {
  await confirmed(reader, await wallet.sendTransaction({ to, data }));
}

interface RpcReply {
  readonly id: number;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`JSON-RPC HTTP ${res.status}: ${await res.text()}`);
  return res.json();
}

function jsonRpc(url: string): (method: string, params: readonly unknown[]) => Promise<unknown> {
  return async (method, params) => {
    const reply = (await post(url, { jsonrpc: '2.0', id: 1, method, params })) as RpcReply;
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result;
  };
}

async function rpcBatch(url: string, calls: readonly { method: string; params: readonly unknown[] }[]): Promise<unknown[]> {
  if (calls.length === 0) return [];
  const replies = (await post(url, calls.map((c, id) => ({ jsonrpc: '2.0', id, ...c })))) as RpcReply[];
  const out: unknown[] = new Array(calls.length);
  for (const r of replies) {
    if (r.error) throw new Error(`${calls[r.id]?.method}: ${r.error.message}`);
    out[r.id] = r.result;
  }
  return out;
}

async function unmined(url: string, hashes: readonly Hash[]): Promise<number> {
  let missing = 0;
  for (let i = 0; i < hashes.length; i += 500) {
    const receipts = await rpcBatch(url, hashes.slice(i, i + 500).map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })));
    missing += receipts.filter((r) => r === null || r === undefined).length;
  }
  return missing;
}
