// The public surface of the entries scoutkit/rpc, scoutkit/indexer and scoutkit/fixture is
// pinned (scoutkit's own is in test/lib/exports.test.ts): a change must change these lists on purpose.
import t from 'tap';
import * as rpc from '../../adapters/rpc/index.ts';
import * as indexer from '../../lib/indexer/index.ts';
import * as fixture from '../../fixture/index.ts';

t.same(Object.keys(rpc).sort(), [
  'FatalRpcError',
  'FinalRpcError',
  'NotYetRpcError',
  'RetryableRpcError',
  'classify',
  'createMetadataFetcher',
  'createRpcChainSource',
  'createRpcNode',
  'failureKind',
  'nodeError',
  'resolveUri',
  'withRetry',
], 'scoutkit/rpc');
t.same(Object.keys(indexer).sort(), [
  'ChainMismatchError',
  'LeaseHeldError',
  'LeaseLostError',
  'OutageError',
  'ReorgTooDeepError',
  'TRACE_MODES',
  'backfillUserOperations',
  'createFactCache',
  'createIndexer',
  'describeHolder',
  'expandUri',
  'gatherFacts',
  'leasedSink',
  'missingFeatures',
  'traceModeOf',
  'tracingLine',
], 'scoutkit/indexer');
t.same(Object.keys(fixture).sort(), [
  'BIG_TOKEN_ID',
  'ETHER',
  'GWEI',
  'HEAD_BLOCK',
  'HUGE_1155_ID',
  'METHODS',
  'PING_PONG_ID',
  'REVERT_MESSAGE',
  'TOPICS',
  'ZERO_ADDRESS',
  'buildFixtureChain',
  'loadFixtureChain',
], 'scoutkit/fixture');
