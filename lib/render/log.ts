/** The Log object: four topics (null-padded), decoded by the emitting contract's ABI or a known one. */
import type { LogRecord } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { Log } from '../schema/log.ts';
import { renderAddress } from './address.ts';
import type { RenderContext } from './context.ts';
import { decodeLogRecord } from './decode.ts';
import { iso } from './format.ts';

/** The Log object as the API writes it. */
export type LogJson = t.OutputOf<typeof Log>;

export function renderLog(log: LogRecord, ctx: RenderContext): LogJson {
  const topics = [0, 1, 2, 3].map((i) => log.topics[i] ?? null);
  return {
    address: renderAddress(log.address, ctx),
    block_hash: log.blockHash,
    block_number: log.blockNumber,
    block_timestamp: iso(log.timestamp),
    data: log.data,
    decoded: decodeLogRecord(log, ctx),
    index: log.index,
    smart_contract: null,
    topics,
    transaction_hash: log.transactionHash,
  };
}
