/**
 * `logs/getLogs`: logs of consensus blocks `fromBlock`..`toBlock` (integers or `latest`) by
 * emitter `address` and/or `topic0..3`, combined by `topicA_B_opr` (`and`|`or`, required for
 * every pair of given topics; the topics combine left to right, each with the operator of the
 * pair it forms with the previous given topic). Ascending by block and log index, at most 1000
 * per request, paged by `page`/`offset` (offset ≤ 1000). Numbers are 0x-hex, topics always four
 * (null where absent).
 */
import type { Hex, LogRecord } from '../../domain/records.ts';
import type { EtherscanAction, EtherscanAnswer, EtherscanQuery } from '../action.ts';
import { fail, none, ok } from '../action.ts';
import { collectWindow } from '../paging.ts';
import type { Read, Window } from '../params.ts';
import { isAddress, nonNegative, param, windowParam } from '../params.ts';
import { hex, transactionsOf } from '../rows.ts';
import type { EtherscanParam } from '../paramDocs.ts';
import { OPTIONAL_ADDRESS, PAGING } from '../paramDocs.ts';
import { address } from '../../domain/hex.ts';

/** Blockscout's cap on one getLogs answer. */
export const MAX_LOGS = 1000;

type Bound = number | 'latest';

function blockParam(query: EtherscanQuery, name: string): Read<Bound> | undefined {
  const v = param(query, name);
  if (v === undefined) return undefined;
  if (v.toLowerCase() === 'latest') return { value: 'latest' };
  const n = nonNegative(v, Number.MAX_SAFE_INTEGER);
  return n === undefined ? { error: fail(`Invalid ${name} format`) } : { value: n };
}

interface TopicTest {
  readonly position: number;
  readonly topic: Hex;
  /** how it combines with the result so far (none for the first) */
  readonly op: 'and' | 'or' | null;
}

function topicTests(query: EtherscanQuery): Read<readonly TopicTest[]> {
  const given: { position: number; topic: Hex }[] = [];
  for (let i = 0; i < 4; i++) {
    const v = param(query, `topic${i}`);
    if (v === undefined) continue;
    if (!/^0x[0-9a-fA-F]{64}$/.test(v)) return { error: fail(`Invalid topic${i} format`) };
    given.push({ position: i, topic: v.toLowerCase() as Hex });
  }
  const missing: string[] = [];
  const ops = new Map<string, 'and' | 'or'>();
  for (let a = 0; a < given.length; a++) {
    for (let b = a + 1; b < given.length; b++) {
      const name = `topic${given[a]?.position}_${given[b]?.position}_opr`;
      const v = param(query, name)?.toLowerCase();
      if (v === undefined) missing.push(name);
      else if (v !== 'and' && v !== 'or') return { error: fail(`Invalid ${name} format`) };
      else ops.set(name, v);
    }
  }
  if (missing.length > 0) return { error: fail(`Required query parameters missing: ${missing.join(', ')}`) };
  return {
    value: given.map((g, i) => ({ ...g, op: i === 0 ? null : (ops.get(`topic${given[i - 1]?.position}_${g.position}_opr`) ?? 'and') })),
  };
}

function matches(log: LogRecord, tests: readonly TopicTest[]): boolean {
  let result = true;
  for (const t of tests) {
    const hit = log.topics[t.position] === t.topic;
    result = t.op === null ? hit : t.op === 'and' ? result && hit : result || hit;
  }
  return result;
}

export async function getLogsAnswer(ctx: Parameters<EtherscanAction['run']>[0], query: EtherscanQuery): Promise<EtherscanAnswer> {
  const fromP = blockParam(query, 'fromBlock');
  const toP = blockParam(query, 'toBlock');
  const missing = [fromP === undefined ? 'fromBlock' : null, toP === undefined ? 'toBlock' : null].filter((s): s is string => s !== null);
  if (missing.length > 0 || fromP === undefined || toP === undefined) return fail(`Required query parameters missing: ${missing.join(', ')}`);
  if ('error' in fromP) return fromP.error;
  if ('error' in toP) return toP.error;
  const rawAddress = param(query, 'address');
  const tests = topicTests(query);
  if ('error' in tests) return tests.error;
  if (rawAddress === undefined && tests.value.length === 0) return fail('Required query parameters missing: address and/or topic0..topic3');
  if (rawAddress !== undefined && !isAddress(rawAddress)) return fail('Invalid address format');
  const w = windowParam(query, MAX_LOGS);
  if ('error' in w) return w.error;
  const window: Window = { skip: w.value.skip, take: Math.min(w.value.take, MAX_LOGS) };
  const head = await ctx.ds.getHighestBlockNumber();
  if (head === null) return none('No logs found');
  const from = fromP.value === 'latest' ? head : fromP.value;
  const to = toP.value === 'latest' ? head : toP.value;
  const filter = { ...(rawAddress !== undefined ? { address: address(rawAddress.toLowerCase()) } : {}), blocks: { from, to } };
  const logs = from > to ? [] : await collectWindow<LogRecord, LogRecord>(
    (after, limit) => ctx.ds.listLogs(filter, { after: after === null ? null : { blockNumber: after.blockNumber, index: after.index }, limit, order: 'asc' }),
    window,
    (log) => (matches(log, tests.value) ? [log] : []),
  );
  if (logs.length === 0) return none('No logs found');
  const txs = await transactionsOf(ctx.ds, logs.map((l) => l.transactionHash));
  return ok(
    logs.map((l) => {
      const tx = txs.get(l.transactionHash);
      return {
        address: l.address,
        topics: [0, 1, 2, 3].map((i) => l.topics[i] ?? null),
        data: l.data,
        blockNumber: hex(l.blockNumber),
        timeStamp: hex(l.timestamp),
        gasPrice: hex(tx?.gasPrice ?? 0n),
        gasUsed: hex(tx?.gasUsed ?? 0n),
        logIndex: hex(l.index),
        transactionHash: l.transactionHash,
        transactionIndex: hex(l.transactionIndex),
      };
    }),
  );
}

/** `topic0`..`topic3` and the operator of each pair */
const TOPICS: readonly EtherscanParam[] = [
  ...[0, 1, 2, 3].map((i) => ({ name: `topic${i}`, description: `Topic ${i} (0x + 64 hex digits)` })),
  ...[[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]].map(([a, b]) => ({ name: `topic${a}_${b}_opr`, description: `How topic${a} and topic${b} combine`, enum: ['and', 'or'] })),
];

export const getlogs: EtherscanAction = {
  module: 'logs',
  action: 'getlogs',
  summary: 'Logs by block range, emitter and topics',
  params: [
    { name: 'fromBlock', description: 'The first block: a number or `latest`', required: true, example: 'blockNumber' },
    { name: 'toBlock', description: 'The last block: a number or `latest`', required: true, example: 'blockNumber' },
    { ...OPTIONAL_ADDRESS, description: 'The emitting contract' },
    ...TOPICS,
    ...PAGING,
  ],
  run: getLogsAnswer,
};
