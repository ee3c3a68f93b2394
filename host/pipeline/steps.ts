/**
 * The steps of a routed request before its answer — identify → rateLimit → knownChain →
 * authorize — built once per middleware (one limiter state, one key ring) and run the same way by
 * every way in (the Koa middleware, the fast path, upgrades, socket joins): as plain functions, a
 * promise only when a step must wait. A step refuses by throwing an `ApiException`.
 */
import type { Explorer } from '../../lib/index.ts';
import { authorize, identify } from '../identity.ts';
import type { IdentityOptions } from '../identity.ts';
import { rateLimit } from '../limits.ts';
import type { RateLimitOptions } from '../limits.ts';
import { ApiException } from '../request.ts';
import type { HeaderSink, HostRequest, RequestInfo, Step } from '../request.ts';

/** The four steps, in order. */
export function requestSteps(explorer: Explorer, options: IdentityOptions & RateLimitOptions): readonly Step[] {
  return [identify(options), rateLimit(options), knownChain(explorer), authorize(options)];
}

/** An unconfigured chain is 404, with or without a key (after counting, so it has limit headers). */
export function knownChain(explorer: Explorer): Step {
  return (_request, info) => {
    if (!explorer.chainIds.includes(info.chainId)) {
      throw new ApiException({ kind: 'NotFound', message: `Unknown chain: ${info.chainId}` });
    }
  };
}

/** Run `steps` from the `from`-th: undefined when none had to wait, else the promise of the rest. */
export function runSteps(steps: readonly Step[], request: HostRequest, info: RequestInfo, sink: HeaderSink, from = 0): void | Promise<void> {
  for (let i = from; i < steps.length; i++) {
    const waiting = (steps[i] as Step)(request, info, sink);
    if (waiting !== undefined) return waiting.then(() => runSteps(steps, request, info, sink, i + 1));
  }
  return undefined;
}
