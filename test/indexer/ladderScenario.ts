/**
 * The scenario the tracing ladder is proven on, on any node with anvil's dev accounts: the demo
 * scenario (value moved by internal calls, a failed inner call, reverted and panicking
 * transactions, contracts created by a contract with CREATE and CREATE2, tokens of three
 * standards) and an EIP-1967 proxy whose constructor writes its implementation slot, upgraded
 * once by a call, and an EIP-1167 clone. Deterministic: the same transactions in the same order.
 */
import type { Address } from '../../lib/domain/records.ts';
import { runScenario } from '../../demo/scenario.ts';
import type { ScenarioFacts } from '../../demo/scenario.ts';
import { cloneInit, mined, proxyInit, word } from './proxyContracts.ts';
import { rpc } from './helpers.ts';

export const LADDER_IMPLS = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222'] as const;

export interface LadderScenario {
  readonly facts: ScenarioFacts;
  readonly proxy: Address;
  readonly clone: Address;
  /** every transaction, in the order sent */
  readonly transactions: readonly string[];
  /** every address the scenario names */
  readonly addresses: readonly string[];
  /** the block's beneficiary (each node has its own) */
  readonly miner: string;
  readonly head: number;
}

export async function runLadderScenario(url: string): Promise<LadderScenario> {
  const facts = await runScenario(url);
  const deploy = await mined(url, { data: proxyInit(LADDER_IMPLS[0]) });
  const proxy = deploy.contractAddress as Address;
  const upgrade = await mined(url, { to: proxy, data: `0x${word(LADDER_IMPLS[1])}` });
  const cloned = await mined(url, { data: cloneInit(LADDER_IMPLS[0]) });
  const clone = cloned.contractAddress as Address;
  const head = Number(await rpc(url, 'eth_blockNumber', []));
  const latest = (await rpc(url, 'eth_getBlockByNumber', ['latest', false])) as { miner: string };
  const addresses = [...new Set([...Object.values(facts.accounts), ...Object.values(facts.contracts), proxy, clone].map((a) => a.toLowerCase()))];
  return {
    facts,
    proxy,
    clone,
    transactions: [...facts.allTxs, deploy.transactionHash, upgrade.transactionHash, cloned.transactionHash],
    addresses,
    miner: latest.miner.toLowerCase(),
    head,
  };
}
