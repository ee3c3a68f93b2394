/**
 * The legacy `GET /check-all-by-addresses?addresses=a,b&chainIds=1,2` (also
 * `/checkAllByAddresses`), which hardhat-verify 2 asks before it verifies: per address, the chains
 * (of those asked) where it is verified, `perfect` (a full match) or `partial`; none: `status:
 * "false"`. Errors in the legacy shape (`{error, message}`), 400.
 */
import type { Address } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';
import type { RawQuery } from '../request.ts';
import type { SourcifyAnswer, SourcifyContext } from './answer.ts';
import { checksum, legacyStatus, parseAddress, queryParam, v1Error } from './answer.ts';
import { lookupAddress } from './lookup.ts';

const list = (text: string | undefined): string[] => (text ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');

export async function checkAllByAddresses(ctx: SourcifyContext, query: RawQuery): Promise<SourcifyAnswer> {
  const rawAddresses = list(queryParam(query, 'addresses'));
  const chainIds = list(queryParam(query, 'chainIds'));
  if (rawAddresses.length === 0) return v1Error(400, 'addresses is required: a comma-separated list of addresses');
  if (chainIds.length === 0) return v1Error(400, 'chainIds is required: a comma-separated list of chain ids');
  const addresses: Address[] = [];
  for (const raw of rawAddresses) {
    const address = parseAddress(raw);
    if (address === null) return v1Error(400, `Invalid address: ${raw}`);
    addresses.push(address);
  }
  for (const id of chainIds) if (!ctx.chains.has(id)) return v1Error(400, `Chain ${id} not supported for verification`);
  const out: JsonObject[] = [];
  for (const address of addresses) {
    const found: JsonObject[] = [];
    for (const id of chainIds) {
      const { contract } = await lookupAddress(ctx.chains.get(id) as NonNullable<ReturnType<typeof ctx.chains.get>>, address);
      if (contract !== undefined) found.push({ chainId: id, status: legacyStatus(contract.match) });
    }
    out.push(found.length > 0 ? { address: checksum(address), chainIds: found } : { address: checksum(address), status: 'false' });
  }
  return { status: 200, body: out };
}
