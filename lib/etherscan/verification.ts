/**
 * What the dialect's verification actions share: the texts clients key on, a submission's
 * answer, and the libraries of the single-file form (`libraryname1..10` / `libraryaddress1..10`).
 *
 * Errors answer as Blockscout's: status "0" with the text as both message and result (forge and
 * hardhat-verify read the result; a null result would fail hardhat's checks), HTTP 200.
 */
import type { SubmitOutcome } from '../contracts/submit.ts';
import { VERIFICATION_TEXT } from '../contracts/submit.ts';
import type { Address } from '../domain/records.ts';
import type { EtherscanAnswer, EtherscanQuery } from './action.ts';
import { fail, ok } from './action.ts';
import { isAddress, param } from './params.ts';
import type { Read } from './params.ts';

/** `{"status":"0","message":text,"result":text}` */
export const refuse = (text: string): EtherscanAnswer => fail(text, text);

/** Blockscout's CONTRACT_VERIFICATION_MAX_LIBRARIES default */
export const MAX_LIBRARIES = 10;

/** `libraryname<i>` / `libraryaddress<i>`, i = 1..10: name → address (a name without a valid address is an error). */
export function librariesParam(query: EtherscanQuery): Read<Readonly<Record<string, Address>>> {
  const out: Record<string, Address> = {};
  for (let i = 1; i <= MAX_LIBRARIES; i++) {
    const name = param(query, `libraryname${i}`);
    if (name === undefined) continue;
    const address = param(query, `libraryaddress${i}`);
    if (address === undefined || !isAddress(address)) return { error: refuse(`libraryaddress${i} is not a valid address (library ${name})`) };
    out[name] = address.toLowerCase() as Address;
  }
  return { value: out };
}

/** The answer to a submission: its job's uid, or why there is none. */
export function submitted(outcome: SubmitOutcome): EtherscanAnswer {
  switch (outcome.kind) {
    case 'queued':
      return ok(outcome.job.uid);
    case 'not-a-contract':
      return refuse(VERIFICATION_TEXT.notAContract);
    case 'already-verified':
      return refuse(VERIFICATION_TEXT.alreadyVerified);
    case 'unavailable':
    case 'busy':
      return refuse(outcome.message);
  }
}
