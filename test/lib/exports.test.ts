// The public surface of lib/ is pinned: a change to it must change this list on purpose.
import t from 'tap';
import * as lib from '../../lib/index.ts';

t.same(Object.keys(lib).sort(), [
  'API_PREFIX',
  'DEFAULT_IPFS_GATEWAY',
  'DEFAULT_PAGE_SIZE',
  'ENDPOINTS',
  'ENDPOINT_NAMES',
  'InvalidWriteError',
  'MAX_PAGE_SIZE',
  'NFT_TOKEN_TYPES',
  'OPENAPI_PATH',
  'RATE_LIMITED_MESSAGE',
  'ROUTES',
  'TOKEN_TYPES',
  'TRANSACTION_KINDS',
  'call',
  'createExplorer',
  'errorResponse',
  'explorerClient',
  'ingest',
  'matchRoute',
  'openApiDocument',
  'parsePath',
  'routeMatcher',
  'toJson',
  'validateBundle',
  'validatePending',
]);
t.same([...lib.ENDPOINT_NAMES].sort(), Object.keys(lib.ENDPOINTS).sort(), 'every endpoint name has a module');
t.same(lib.ROUTES.map((r) => r.endpoint).sort(), [...lib.ENDPOINT_NAMES].sort(), 'and exactly one route');
