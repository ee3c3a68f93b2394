/** The Log object: four topics (null-padded), decoded by the emitting contract's ABI or a known one. */
import type { LogRecord } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';
import { renderAddress } from './address.ts';
import type { RenderContext } from './context.ts';
import { decodeLogRecord } from './decode.ts';
import { iso } from './format.ts';

export function renderLog(log: LogRecord, ctx: RenderContext): JsonObject {
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
