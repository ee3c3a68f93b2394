/**
 * The Sourcify API, as a Sourcify server of one's own for every chain served (forge's and
 * hardhat-verify's `--verifier sourcify`): one module per endpoint, this the table from a method
 * and path to them. Its submissions are jobs of the one verification flow (lib/contracts/submit.ts),
 * its reads the same contract store, so a contract verified through Sourcify is verified in API v2
 * and Etherscan's dialect, and the other way round. A path of the API under a method it does not
 * take: 404 `route_not_found`, in API v2's error shape.
 */
import type { SourcifyAnswer, SourcifyContext, SourcifyRequest } from './answer.ts';
import { v2Error } from './answer.ts';
import { checkAllByAddresses } from './checkAll.ts';
import { contract } from './contract.ts';
import { contracts } from './contracts.ts';
import { jobStatus } from './job.ts';
import { legacyVerify } from './legacyVerify.ts';
import { sourcifyRoute } from './paths.ts';
import { verify } from './verify.ts';
import { verifyMetadata } from './verifyMetadata.ts';

export type { SourcifyAnswer, SourcifyContext, SourcifyRequest } from './answer.ts';
export { sourcifyPath } from './paths.ts';

export async function answerSourcify(ctx: SourcifyContext, request: SourcifyRequest): Promise<SourcifyAnswer> {
  const route = sourcifyRoute(request.method.toUpperCase(), request.path);
  if (route === null) return v2Error(404, 'route_not_found', `The requested path was not found: ${request.method.toUpperCase()} ${request.path}`);
  switch (route.name) {
    case 'verify':
      return verify(ctx, route.chainId, route.address, request.body);
    case 'verifyMetadata':
      return verifyMetadata(ctx, route.chainId, route.address, request.body);
    case 'job':
      return jobStatus(ctx, route.id);
    case 'contract':
      return contract(ctx, route.chainId, route.address, request.query);
    case 'contracts':
      return contracts(ctx, route.chainId, request.query);
    case 'checkAll':
      return checkAllByAddresses(ctx, request.query);
    case 'legacyVerify':
      return legacyVerify(ctx, request.body);
  }
}

/** The name Sourcify's API is charged, metered and reported as. */
export const SOURCIFY_ENDPOINT = 'sourcify';
