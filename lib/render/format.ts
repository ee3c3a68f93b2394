/** Value formats of the spec: decimal strings, checksummed addresses, ISO timestamps. */
import { getAddress } from 'viem';
import type { Address } from '../domain/records.ts';

export const dec = (v: bigint): string => v.toString();
export const decOrNull = (v: bigint | null | undefined): string | null => (v === null || v === undefined ? null : v.toString());

/** ISO 8601 UTC with six fractional digits, as Blockscout prints: 2024-03-21T10:15:23.000000Z */
export function iso(unixSeconds: number): string {
  return `${new Date(unixSeconds * 1000).toISOString().slice(0, 19)}.000000Z`;
}
export const isoOrNull = (s: number | null): string | null => (s === null ? null : iso(s));

const checksums = new Map<string, string>();
/** EIP-55 checksum (cached: the same addresses recur on every page). */
export function checksum(address: Address): string {
  let c = checksums.get(address);
  if (c === undefined) {
    c = getAddress(address);
    if (checksums.size > 100_000) checksums.clear();
    checksums.set(address, c);
  }
  return c;
}

