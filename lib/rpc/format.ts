/**
 * Records rendered as a node renders them (anvil / geth): quantities as minimal hex, data and
 * hashes as lower-case hex, addresses lower-case, nulls where the node has them. Fields the
 * store does not hold (signatures of records indexed without one, access lists, tries' roots, mix hash) are left out rather
 * than invented; everything rendered equals the node's value.
 */
import { keccak256, toRlp } from 'viem';
import type { BlockRecord, Hex, LogRecord, TransactionRecord } from '../domain/records.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { hexQuantity as q } from './params.ts';
import { hex } from '../domain/hex.ts';

/** The chain id as a quantity, from the explorer's decimal chain id (null when it is not one). */
export function chainIdQuantity(chainId: string): Hex | null {
  return /^\d+$/.test(chainId) ? q(BigInt(chainId)) : null;
}

export function renderBlock(block: BlockRecord, transactions: readonly JsonValue[]): JsonObject {
  return {
    hash: block.hash,
    parentHash: block.parentHash,
    sha3Uncles: keccak256(toRlp([...block.unclesHashes])),
    miner: block.miner,
    ...(block.stateRoot !== null ? { stateRoot: block.stateRoot } : {}),
    ...(block.difficulty !== null ? { difficulty: q(block.difficulty) } : {}),
    number: q(block.number),
    gasLimit: q(block.gasLimit),
    gasUsed: q(block.gasUsed),
    timestamp: q(block.timestamp),
    extraData: block.extraData,
    nonce: block.nonce,
    ...(block.baseFeePerGas !== null ? { baseFeePerGas: q(block.baseFeePerGas) } : {}),
    ...(block.totalDifficulty !== null ? { totalDifficulty: q(block.totalDifficulty) } : {}),
    ...(block.size !== null ? { size: q(block.size) } : {}),
    uncles: [...block.unclesHashes],
    transactions: [...transactions],
  };
}

/**
 * The chain id a transaction was signed for, as a node reports it: a legacy transaction's from its
 * EIP-155 `v` (none before EIP-155, nor without a stored signature); a typed one's is the chain
 * whose block holds it (nodes refuse another), the chain the store is served as.
 */
function signedChainId(tx: TransactionRecord, chainId: string): Hex | null {
  if (tx.type !== null && tx.type > 0) return chainIdQuantity(chainId);
  const v = tx.signature?.v;
  return v !== undefined && v >= 35n ? q((v - 35n) / 2n) : null;
}

export function renderTransaction(tx: TransactionRecord, chainId: string): JsonObject {
  const id = signedChainId(tx, chainId);
  return {
    ...(tx.type !== null ? { type: q(tx.type) } : {}),
    ...(id !== null ? { chainId: id } : {}),
    nonce: q(tx.nonce),
    gas: q(tx.gas),
    ...(tx.maxFeePerGas !== null ? { maxFeePerGas: q(tx.maxFeePerGas) } : {}),
    ...(tx.maxPriorityFeePerGas !== null ? { maxPriorityFeePerGas: q(tx.maxPriorityFeePerGas) } : {}),
    to: tx.to,
    value: q(tx.value),
    input: tx.input,
    hash: tx.hash,
    blockHash: tx.blockHash,
    blockNumber: tx.blockNumber === null ? null : q(tx.blockNumber),
    transactionIndex: tx.index === null ? null : q(tx.index),
    from: tx.from,
    ...(tx.gasPrice !== null ? { gasPrice: q(tx.gasPrice) } : {}),
    ...(tx.timestamp !== null ? { blockTimestamp: q(tx.timestamp) } : {}),
    ...(tx.signature !== undefined
      ? { r: tx.signature.r, s: tx.signature.s, v: q(tx.signature.v), ...(tx.signature.yParity !== null ? { yParity: q(tx.signature.yParity) } : {}) }
      : {}),
  };
}

export function renderLog(log: LogRecord): JsonObject {
  return {
    address: log.address,
    topics: [...log.topics],
    data: log.data,
    blockHash: log.blockHash,
    blockNumber: q(log.blockNumber),
    blockTimestamp: q(log.timestamp),
    transactionHash: log.transactionHash,
    transactionIndex: q(log.transactionIndex),
    logIndex: q(log.index),
    removed: false,
  };
}

/** A receipt of a mined transaction; `cumulativeGasUsed` is the gas of the block up to and including it. */
export function renderReceipt(tx: TransactionRecord, logs: readonly LogRecord[], cumulativeGasUsed: bigint): JsonObject {
  return {
    ...(tx.type !== null ? { type: q(tx.type) } : {}),
    ...(tx.status !== null ? { status: tx.status === 'ok' ? '0x1' : '0x0' } : {}),
    cumulativeGasUsed: q(cumulativeGasUsed),
    logs: logs.map(renderLog),
    logsBloom: logsBloom(logs),
    transactionHash: tx.hash,
    transactionIndex: tx.index === null ? null : q(tx.index),
    blockHash: tx.blockHash,
    blockNumber: tx.blockNumber === null ? null : q(tx.blockNumber),
    gasUsed: tx.gasUsed === null ? null : q(tx.gasUsed),
    effectiveGasPrice: tx.gasPrice === null ? null : q(tx.gasPrice),
    from: tx.from,
    to: tx.to,
    contractAddress: tx.to === null ? tx.createdContract : null,
  };
}

/** The 2048-bit bloom of logs (yellow paper §4.3.1): 3 bits per address and topic. */
export function logsBloom(logs: readonly LogRecord[]): Hex {
  const bits = new Uint8Array(256);
  const add = (value: Hex) => {
    const h = keccak256(value, 'bytes');
    for (let i = 0; i < 6; i += 2) {
      const bit = (((h[i] ?? 0) << 8) | (h[i + 1] ?? 0)) & 2047;
      const at = 255 - Math.floor(bit / 8);
      bits[at] = (bits[at] ?? 0) | (1 << (bit % 8));
    }
  };
  for (const log of logs) {
    add(log.address);
    for (const t of log.topics) add(t);
  }
  return hex(`0x${Array.from(bits, (b) => b.toString(16).padStart(2, '0')).join('')}`);
}
