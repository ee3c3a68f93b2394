/**
 * What the dialect's contract actions read: the verified contract an address runs (its own
 * verification, else a bytecode twin's, as Blockscout's getabi and getsourcecode pick), and the
 * answers Etherscan clients key on when there is none.
 */
import type { AddressVerification } from '../contracts/lookup.ts';
import { verifiedByAddress } from '../contracts/lookup.ts';
import type { VerifiedContract } from '../contracts/records.ts';
import type { Address } from '../domain/records.ts';
import type { JsonValue } from '../json.ts';
import type { EtherscanAnswer, EtherscanContext } from './action.ts';
import { fail } from './action.ts';

export const NOT_VERIFIED = 'Contract source code not verified';

/**
 * Etherscan's answer for an unverified contract, `{"status":"0","message":"NOTOK","result":"Contract source code not verified"}`:
 * forge reads the result's text, wagmi's block-explorer plugin wants `NOTOK` with a string
 * result, whatsabi's loader a string result.
 */
export const notVerified = (): EtherscanAnswer => fail('NOTOK', NOT_VERIFIED);

/** The verification of an address (own or twin), or undefined (no contract store, or none). */
export async function verificationOf(ctx: EtherscanContext, address: Address): Promise<AddressVerification | undefined> {
  const store = ctx.chain.contracts;
  if (store === undefined) return undefined;
  return (await verifiedByAddress(ctx.ds, store, [address])).get(address);
}

/** The ABI as Etherscan sends it: a JSON-encoded string. */
export const abiText = (c: VerifiedContract): string => JSON.stringify(c.abi as JsonValue);
