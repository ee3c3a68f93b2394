/**
 * GET /config/db-background-migrations — none: a store applies its schema migrations when it
 * opens, before it serves.
 */
import * as E from 'fp-ts/lib/Either.js';
import { BackgroundMigrations } from '../schema/config.ts';
import { defineEndpoint } from './endpoint.ts';

export const configDbBackgroundMigrations = defineEndpoint({
  route: '/config/db-background-migrations',
  summary: 'Uncompleted background migrations (never any)',
  path: {},
  query: {},
  response: BackgroundMigrations,
  handler: () => () => async () => E.right({ migrations: [] }),
});
