/** GET /config/public-metrics — no public metrics are computed: an update period of 0 hours. */
import * as E from 'fp-ts/lib/Either.js';
import { PublicMetricsConfig } from '../schema/config.ts';
import { defineEndpoint } from './endpoint.ts';

export const configPublicMetrics = defineEndpoint({
  route: '/config/public-metrics',
  summary: 'Public metrics configuration (none computed: period 0)',
  path: {},
  query: {},
  response: PublicMetricsConfig,
  handler: () => () => async () => E.right({ update_period_hours: 0 }),
});
