/**
 * The demo scenario: deploys the contracts of demo/contracts (precompiled: demo/artifacts.ts) on
 * any EVM JSON-RPC node where anvil's default accounts are funded, and exercises every case the
 * indexer must handle.
 * Transactions are sent strictly one after another, each waiting for its receipt, so it works
 * with automine and with interval mining alike, on anvil and on Hardhat 2 and 3 (`hardhat node`).
 */
import { createPublicClient, createWalletClient, defineChain, encodeFunctionData, getAddress, http, keccak256, parseEther, parseEventLogs, parseGwei } from 'viem';
import type { Abi, Account, Address, Chain, Hash, Hex, PublicClient, TransactionReceipt, Transport, WalletClient } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { DEFAULT_MNEMONIC } from './anvil.ts';
import { CONTRACTS } from './artifacts.ts';
import type { CompiledContracts } from './artifacts.ts';

export type Wallet = WalletClient<Transport, Chain, Account>;
export type Reader = PublicClient<Transport, Chain>;

/** A fresh address that first appears on chain as the recipient of an internal transaction. */
export const FRESH_ADDRESS: Address = getAddress('0x5c0a700000000000000000000000000000c0ffee');
export const CREATE2_SALT: Hex = `0x${'5c'.repeat(32)}`;
export const BIG_NFT_ID = 2n ** 64n + 5n;
export const NFT_IDS = { first: 1n, second: 2n, burned: 3n, big: BIG_NFT_ID } as const;
export const MULTI_IDS = { single: 1n, batchA: 2n, batchB: 3n } as const;

export interface ScenarioAccounts {
  /** index 0: deploys and owns every contract */
  readonly deployer: Address;
  readonly alice: Address;
  readonly bob: Address;
  readonly carol: Address;
  readonly dave: Address;
  /** never sends; receives value only through an internal transaction */
  readonly fresh: Address;
}

export interface ScenarioContracts {
  /** DemoToken "Scout Token" SCT, 18 decimals */
  readonly token: Address;
  /** DemoNFT "Scout NFT" SNFT */
  readonly nft: Address;
  /** DemoMulti (ERC-1155) */
  readonly multi: Address;
  readonly router: Address;
  readonly reverter: Address;
  readonly factory: Address;
  /** DemoToken "Factory Token" FCT (6 decimals) created by the factory with CREATE */
  readonly createdToken: Address;
  /** DemoToken "Salted Token" SLT (0 decimals) created by the factory with CREATE2 */
  readonly created2Token: Address;
}

export interface ScenarioTxs {
  readonly ethTransfer: Hash; // EIP-1559, deployer → alice
  readonly ethTransferLegacy: Hash; // type 0 with gasPrice, alice → bob
  readonly ethTransferAccessList: Hash; // type 1 (EIP-2930), bob → carol
  readonly deployToken: Hash;
  readonly deployNft: Hash;
  readonly deployMulti: Hash;
  readonly deployRouter: Hash;
  readonly deployReverter: Hash;
  readonly deployFactory: Hash;
  readonly tokenMint: Hash; // 1000 SCT → deployer
  readonly tokenTransfer: Hash; // 100 SCT deployer → alice
  readonly tokenApprove: Hash; // alice approves bob for 40 SCT
  readonly tokenTransferFrom: Hash; // bob moves 30 SCT alice → carol
  readonly tokenBurn: Hash; // carol burns 10 SCT
  readonly nftMint: Hash; // id 1 → alice
  readonly nftMintSecond: Hash; // id 2 → alice
  readonly nftMintBurned: Hash; // id 3 → bob
  readonly nftMintBig: Hash; // id 2^64+5 → alice
  readonly nftTransfer: Hash; // transferFrom id 1 alice → bob
  readonly nftSafeTransfer: Hash; // safeTransferFrom id 2^64+5 alice → carol
  readonly nftBurn: Hash; // bob burns id 3
  readonly multiMint: Hash; // id 1 × 100 → alice
  readonly multiMintBatch: Hash; // ids [2,3] × [50,70] → alice
  readonly multiTransferSingle: Hash; // id 1 × 25 alice → bob
  readonly multiTransferBatch: Hash; // ids [2,3] × [10,20] alice → carol
  readonly multiBurn: Hash; // alice burns id 1 × 5
  readonly routerSplit: Hash; // 1 ETH split bob / fresh, plus a failed inner call; succeeds
  readonly routerForwardReverted: Hash; // forward to Reverter.fail: inner revert bubbles up; status 0
  readonly reverted: Hash; // Reverter.fail(): Error("reverter: always fails"); status 0
  readonly panicked: Hash; // Reverter.divide(1, 0): Panic(0x12); status 0
  readonly factoryCreate: Hash; // CREATE of createdToken (mints 1,000,000 FCT to dave)
  readonly factoryCreate2: Hash; // CREATE2 of created2Token (mints 500 SLT to dave)
  readonly createdTokenTransfer: Hash; // 250 FCT dave → alice
}

export interface ScenarioFacts {
  readonly chainId: number;
  readonly accounts: ScenarioAccounts;
  readonly contracts: ScenarioContracts;
  readonly txs: ScenarioTxs;
  readonly tokenIds: { readonly nft: typeof NFT_IDS; readonly multi: typeof MULTI_IDS; readonly roundNfts: readonly bigint[] };
  /** The reason strings and panic code of the failing transactions. */
  readonly revertReasons: { readonly reverted: string; readonly routerForwardReverted: string; readonly failedInnerCall: string; readonly panicCode: number };
  /** Hashes of the repeated rounds, in order (5 per round). */
  readonly roundTxs: readonly Hash[];
  /** Every transaction the scenario sent, in order. */
  readonly allTxs: readonly Hash[];
  readonly rounds: number;
  /** Head block after the last receipt. */
  readonly blockNumber: bigint;
}

export interface Clients {
  readonly chain: Chain;
  readonly reader: Reader;
  /** Wallets of anvil's default accounts 0..9 (mnemonic `test ... junk`). */
  readonly wallets: readonly Wallet[];
}

const accountCache = new Map<number, Account>();
export function devAccount(index: number): Account {
  let account = accountCache.get(index);
  if (!account) {
    account = mnemonicToAccount(DEFAULT_MNEMONIC, { addressIndex: index });
    accountCache.set(index, account);
  }
  return account;
}

/** viem clients for a node, with anvil's default accounts as local signers. */
export async function connect(rpcUrl: string, accounts = 10): Promise<Clients> {
  const probe = createPublicClient({ transport: http(rpcUrl) });
  const id = await probe.getChainId();
  const chain = defineChain({
    id,
    name: `chain ${id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl);
  const reader = createPublicClient({ chain, transport, pollingInterval: 50 });
  const wallets = Array.from({ length: accounts }, (_, i) =>
    createWalletClient({ account: devAccount(i), chain, transport, pollingInterval: 50 }),
  );
  return { chain, reader, wallets };
}

type Status = TransactionReceipt['status'];

async function confirm(reader: Reader, hash: Hash, expected: Status, what: string): Promise<TransactionReceipt> {
  const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 60_000 });
  if (receipt.status !== expected) throw new Error(`scenario: ${what} (${hash}) ended ${receipt.status}, expected ${expected}`);
  return receipt;
}

/**
 * Send a transaction expected to revert, and return its hash. Hardhat (automine) mines such a
 * transaction and still answers its eth_sendRawTransaction with an error: the transaction is
 * signed here, exactly as viem's sendTransaction signs it for a local account (so anvil gets the
 * same bytes as before), its hash is the keccak of the signed bytes, and an error is tolerated
 * when the node knows the transaction all the same.
 */
async function sendExpectingRevert(
  wallet: Wallet, reader: Reader, request: { readonly to: Address; readonly data: Hex; readonly value?: bigint; readonly gas?: bigint },
): Promise<Hash> {
  const prepared = await wallet.prepareTransactionRequest({ to: request.to, data: request.data, value: request.value, gas: request.gas });
  const serializedTransaction = await wallet.signTransaction(prepared);
  const hash = keccak256(serializedTransaction);
  try {
    await wallet.sendRawTransaction({ serializedTransaction });
  } catch (error) {
    const known = await reader.getTransaction({ hash }).then(() => true, () => false);
    if (!known) throw error;
  }
  return hash;
}

export async function runScenario(rpcUrl: string, options: { rounds?: number } = {}): Promise<ScenarioFacts> {
  const rounds = options.rounds ?? 0;
  const compiled = CONTRACTS;
  const { chain, reader, wallets } = await connect(rpcUrl, 5);
  const [deployer, alice, bob, carol, dave] = wallets;
  const allTxs: Hash[] = [];

  const wait = async (hash: Hash, what: string, expected: Status = 'success'): Promise<TransactionReceipt> => {
    allTxs.push(hash);
    return confirm(reader, hash, expected, what);
  };
  const deploy = async (name: string, args: readonly unknown[]): Promise<{ hash: Hash; address: Address }> => {
    const { abi, bytecode } = artifact(compiled, name);
    const hash = await deployer.deployContract({ abi, bytecode, args });
    const receipt = await wait(hash, `deploy ${name}`);
    if (!receipt.contractAddress) throw new Error(`scenario: deploy ${name} created no contract`);
    return { hash, address: getAddress(receipt.contractAddress) };
  };
  const call = async (
    wallet: Wallet, contract: string, address: Address, functionName: string, args: readonly unknown[],
    extra: { value?: bigint; gas?: bigint; expect?: Status } = {},
  ): Promise<{ hash: Hash; receipt: TransactionReceipt }> => {
    const { abi } = artifact(compiled, contract);
    const hash = extra.expect === 'reverted'
      ? await sendExpectingRevert(wallet, reader, { to: address, data: encodeFunctionData({ abi, functionName, args }), value: extra.value, gas: extra.gas })
      : await wallet.writeContract({ address, abi, functionName, args, value: extra.value, gas: extra.gas });
    const receipt = await wait(hash, `${contract}.${functionName}`, extra.expect ?? 'success');
    return { hash, receipt };
  };

  // Plain transfers of three transaction types.
  const ethTransfer = await deployer.sendTransaction({ to: alice.account.address, value: parseEther('1.5') });
  await wait(ethTransfer, 'EIP-1559 transfer');
  const gasPrice = (await reader.getGasPrice()) * 2n + parseGwei('1');
  const ethTransferLegacy = await alice.sendTransaction({ type: 'legacy', to: bob.account.address, value: parseEther('0.25'), gasPrice });
  await wait(ethTransferLegacy, 'legacy transfer');
  const ethTransferAccessList = await bob.sendTransaction({
    type: 'eip2930', to: carol.account.address, value: parseEther('0.125'), gasPrice, accessList: [],
  });
  await wait(ethTransferAccessList, 'EIP-2930 transfer');

  // Contracts.
  const token = await deploy('DemoToken', ['Scout Token', 'SCT', 18, deployer.account.address, 0n]);
  const nft = await deploy('DemoNFT', ['Scout NFT', 'SNFT']);
  const multi = await deploy('DemoMulti', []);
  const router = await deploy('Router', []);
  const reverter = await deploy('Reverter', []);
  const factory = await deploy('TokenFactory', []);

  // ERC-20.
  const sct = (n: bigint): bigint => n * 10n ** 18n;
  const tokenMint = await call(deployer, 'DemoToken', token.address, 'mint', [deployer.account.address, sct(1000n)]);
  const tokenTransfer = await call(deployer, 'DemoToken', token.address, 'transfer', [alice.account.address, sct(100n)]);
  const tokenApprove = await call(alice, 'DemoToken', token.address, 'approve', [bob.account.address, sct(40n)]);
  const tokenTransferFrom = await call(bob, 'DemoToken', token.address, 'transferFrom', [alice.account.address, carol.account.address, sct(30n)]);
  const tokenBurn = await call(carol, 'DemoToken', token.address, 'burn', [sct(10n)]);

  // ERC-721.
  const nftMint = await call(deployer, 'DemoNFT', nft.address, 'mint', [alice.account.address, NFT_IDS.first]);
  const nftMintSecond = await call(deployer, 'DemoNFT', nft.address, 'mint', [alice.account.address, NFT_IDS.second]);
  const nftMintBurned = await call(deployer, 'DemoNFT', nft.address, 'mint', [bob.account.address, NFT_IDS.burned]);
  const nftMintBig = await call(deployer, 'DemoNFT', nft.address, 'mint', [alice.account.address, NFT_IDS.big]);
  const nftTransfer = await call(alice, 'DemoNFT', nft.address, 'transferFrom', [alice.account.address, bob.account.address, NFT_IDS.first]);
  const nftSafeTransfer = await call(alice, 'DemoNFT', nft.address, 'safeTransferFrom', [alice.account.address, carol.account.address, NFT_IDS.big]);
  const nftBurn = await call(bob, 'DemoNFT', nft.address, 'burn', [NFT_IDS.burned]);

  // ERC-1155.
  const multiMint = await call(deployer, 'DemoMulti', multi.address, 'mint', [alice.account.address, MULTI_IDS.single, 100n]);
  const multiMintBatch = await call(deployer, 'DemoMulti', multi.address, 'mintBatch', [alice.account.address, [MULTI_IDS.batchA, MULTI_IDS.batchB], [50n, 70n]]);
  const multiTransferSingle = await call(alice, 'DemoMulti', multi.address, 'safeTransferFrom', [alice.account.address, bob.account.address, MULTI_IDS.single, 25n, '0x']);
  const multiTransferBatch = await call(alice, 'DemoMulti', multi.address, 'safeBatchTransferFrom', [alice.account.address, carol.account.address, [MULTI_IDS.batchA, MULTI_IDS.batchB], [10n, 20n], '0x']);
  const multiBurn = await call(alice, 'DemoMulti', multi.address, 'burn', [alice.account.address, MULTI_IDS.single, 5n]);

  // Internal transactions: value to two addresses, one failed inner call; then failing transactions.
  const failData = encodeCall(compiled, 'Reverter', 'fail');
  const routerSplit = await call(deployer, 'Router', router.address, 'split', [bob.account.address, FRESH_ADDRESS, reverter.address, failData], { value: parseEther('1') });
  const routerForwardReverted = await call(alice, 'Router', router.address, 'forward', [reverter.address, failData], { gas: 200_000n, expect: 'reverted' });
  const reverted = await call(alice, 'Reverter', reverter.address, 'fail', [], { gas: 100_000n, expect: 'reverted' });
  const panicked = await call(bob, 'Reverter', reverter.address, 'divide', [1n, 0n], { gas: 100_000n, expect: 'reverted' });

  // Contracts created by a contract.
  const factoryCreate = await call(dave, 'TokenFactory', factory.address, 'create', ['Factory Token', 'FCT', 6, 1_000_000n * 10n ** 6n]);
  const factoryCreate2 = await call(dave, 'TokenFactory', factory.address, 'create2', ['Salted Token', 'SLT', 0, 500n, CREATE2_SALT]);
  const createdToken = createdAddress(compiled, factoryCreate.receipt);
  const created2Token = createdAddress(compiled, factoryCreate2.receipt);
  const createdTokenTransfer = await call(dave, 'DemoToken', createdToken, 'transfer', [alice.account.address, 250n * 10n ** 6n]);

  // Repeated cheap rounds: ETH, ERC-20, ERC-721 mint + transfer, ERC-1155 transfer.
  const roundTxs: Hash[] = [];
  const roundNfts: bigint[] = [];
  for (let r = 0; r < rounds; r++) {
    const id = 1_000_000n + BigInt(r);
    roundNfts.push(id);
    const h1 = await deployer.sendTransaction({ to: carol.account.address, value: 1000n + BigInt(r) });
    await wait(h1, `round ${r} transfer`);
    const h2 = await call(deployer, 'DemoToken', token.address, 'transfer', [bob.account.address, 1n + BigInt(r)]);
    const h3 = await call(deployer, 'DemoNFT', nft.address, 'mint', [alice.account.address, id]);
    const h4 = await call(alice, 'DemoNFT', nft.address, 'transferFrom', [alice.account.address, dave.account.address, id]);
    const h5 = await call(alice, 'DemoMulti', multi.address, 'safeTransferFrom', [alice.account.address, dave.account.address, MULTI_IDS.batchB, 0n, '0x']);
    roundTxs.push(h1, h2.hash, h3.hash, h4.hash, h5.hash);
  }

  return {
    chainId: chain.id,
    accounts: {
      deployer: deployer.account.address,
      alice: alice.account.address,
      bob: bob.account.address,
      carol: carol.account.address,
      dave: dave.account.address,
      fresh: FRESH_ADDRESS,
    },
    contracts: {
      token: token.address,
      nft: nft.address,
      multi: multi.address,
      router: router.address,
      reverter: reverter.address,
      factory: factory.address,
      createdToken,
      created2Token,
    },
    txs: {
      ethTransfer, ethTransferLegacy, ethTransferAccessList,
      deployToken: token.hash, deployNft: nft.hash, deployMulti: multi.hash,
      deployRouter: router.hash, deployReverter: reverter.hash, deployFactory: factory.hash,
      tokenMint: tokenMint.hash, tokenTransfer: tokenTransfer.hash, tokenApprove: tokenApprove.hash,
      tokenTransferFrom: tokenTransferFrom.hash, tokenBurn: tokenBurn.hash,
      nftMint: nftMint.hash, nftMintSecond: nftMintSecond.hash, nftMintBurned: nftMintBurned.hash,
      nftMintBig: nftMintBig.hash, nftTransfer: nftTransfer.hash, nftSafeTransfer: nftSafeTransfer.hash, nftBurn: nftBurn.hash,
      multiMint: multiMint.hash, multiMintBatch: multiMintBatch.hash, multiTransferSingle: multiTransferSingle.hash,
      multiTransferBatch: multiTransferBatch.hash, multiBurn: multiBurn.hash,
      routerSplit: routerSplit.hash, routerForwardReverted: routerForwardReverted.hash,
      reverted: reverted.hash, panicked: panicked.hash,
      factoryCreate: factoryCreate.hash, factoryCreate2: factoryCreate2.hash, createdTokenTransfer: createdTokenTransfer.hash,
    },
    tokenIds: { nft: NFT_IDS, multi: MULTI_IDS, roundNfts },
    revertReasons: {
      reverted: 'reverter: always fails',
      routerForwardReverted: 'reverter: always fails',
      failedInnerCall: 'reverter: always fails',
      panicCode: 0x12,
    },
    roundTxs,
    allTxs,
    rounds,
    blockNumber: await reader.getBlockNumber({ cacheTime: 0 }),
  };
}

export function artifact(compiled: CompiledContracts, name: string): { abi: Abi; bytecode: Hex } {
  const found = compiled[name];
  if (!found) throw new Error(`no compiled contract ${name}`);
  return found;
}

function encodeCall(compiled: CompiledContracts, contract: string, functionName: string): Hex {
  return encodeFunctionData({ abi: artifact(compiled, contract).abi, functionName, args: [] });
}

function createdAddress(compiled: CompiledContracts, receipt: TransactionReceipt): Address {
  const events = parseEventLogs({ abi: artifact(compiled, 'TokenFactory').abi, logs: receipt.logs, eventName: 'TokenCreated' });
  const args = events[0]?.args as Readonly<Record<string, unknown>> | undefined;
  const token = args?.['token'];
  if (typeof token !== 'string') throw new Error(`scenario: no TokenCreated event in ${receipt.transactionHash}`);
  return getAddress(token);
}
