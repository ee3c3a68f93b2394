/**
 * test:quick's files (see run.ts), in two groups that tap runs side by side, each in one
 * process. Not here: what needs anvil, Postgres, Redis, a browser, a child process or the build
 * (test/host/examples.test.ts imports `scoutkit`, which is dist/); the npm script sets
 * SCOUTKIT_STORES=memory, so the port and conformance suites run on the memory store only.
 */
import { testsUnder } from './files.ts';

/**
 * Every answer against the official OpenAPI documents: the conformance suite (the explorer's
 * own answers, the Etherscan dialect, the advanced filters), every endpoint over real HTTP in
 * both forms (and the fast path answering as the Koa chain does), and the lib tests that
 * validate against the documents too. One group because
 * they load and compile the same documents' schemas (cached per process: routes.test.ts takes
 * a third of its time alone). And, so that the two groups take about as long, the advanced
 * filters' scan budget, the layering rules and the compiler artifacts' test (70 s and 84 s
 * without it, on a machine where npm test takes 27 minutes).
 */
export const CONFORMANCE: readonly string[] = [
  'test/conformance/memory.test.ts',
  'test/conformance/etherscan-memory.test.ts',
  'test/conformance/advanced-memory.test.ts',
  'test/host/routes.test.ts',
  'test/host/fast.test.ts',
  'test/lib/openapi.test.ts',
  'test/lib/endpoints/verified.test.ts',
  'test/lib/endpoints/verified-constructor-args.test.ts',
  'test/lib/stats/averageBlockTime.test.ts',
  'test/lib/advanced.test.ts',
  'test/layering.test.ts',
  'test/lib/contracts/artifacts.test.ts',
];

/** the lib tests not in CONFORMANCE (a new one joins by itself), the fixture chain, the bench's and the scripts' pure parts */
const LIB: readonly string[] = [...testsUnder('test/lib'), ...testsUnder('test/fixture'), ...testsUnder('test/bench'), ...testsUnder('test/scripts')].filter((f) => !CONFORMANCE.includes(f));

/** the port suite, one file per record type (on every store SCOUTKIT_STORES names) */
const PORTS: readonly string[] = testsUnder('test/ports');

/** the memory store, and the host in this process over real HTTP and WebSocket */
const HOST: readonly string[] = [
  ...testsUnder('test/adapters/memory'),
  'test/host/compress.test.ts',
  'test/host/cors.test.ts',
  'test/host/csv.test.ts',
  'test/host/door.test.ts',
  'test/host/limits.test.ts',
  'test/host/log.test.ts',
  'test/host/verification.test.ts',
  'test/host/sourcify.test.ts',
  'test/host/readers.test.ts',
  'test/host/socket.test.ts',
  'test/host/socket-balances.test.ts',
  'test/host/socket-verification.test.ts',
];

/** test:quick's other group: every test of lib/, the memory store, the port suite, the fixture chain, the host in process */
export const MAIN: readonly string[] = [...LIB, ...PORTS, ...HOST];

/**
 * The SQL store's own tests (test/adapters/sql/), npm test only, in two groups of about the same
 * CPU: the write side (rewrites, rollbacks, reorgs, the fast path, bulk mode, the counters and
 * backfills, each held against the memory store) and the rest (reads against the memory store,
 * plans, openers, replicas, dialect; a new file joins it by itself). Each file alone paid about
 * 2.5 s of CPU to start node, tsx, the adapters and the fixture chain.
 */
const SQL_WRITES: readonly string[] = [
  'test/adapters/sql/bulk.test.ts',
  'test/adapters/sql/counters.test.ts',
  'test/adapters/sql/fastpath.test.ts',
  'test/adapters/sql/reorg.test.ts',
  'test/adapters/sql/rollback.test.ts',
  'test/adapters/sql/seq.test.ts',
  'test/adapters/sql/stats-backfill.test.ts',
  'test/adapters/sql/supply-backfill.test.ts',
  'test/adapters/sql/version.test.ts',
  'test/adapters/sql/views-backfill.test.ts',
  'test/adapters/sql/write.test.ts',
];
const SQL_READS: readonly string[] = testsUnder('test/adapters/sql').filter((f) => !SQL_WRITES.includes(f));

/** the conformance suite on SQLite and Postgres (npm test only): one process compiles the documents' schemas once */
const CONFORMANCE_SQL: readonly string[] = testsUnder('test/conformance').filter((f) => !CONFORMANCE.includes(f));

/**
 * `npm test`'s groups (scripts/test/run.ts): the same files, on every store, in four processes
 * (scripts/test/groups/<name>.ts) that tap runs beside the files that need a process of their
 * own. The port suite on SQLite and Postgres is most of their time, so it is a group alone. And
 * the two slowest files, each in a group of its own, so that they start first: tap starts its
 * files in the order of their names, scripts/ before test/, where test/package/ comes last.
 */
export const TEST_GROUPS = {
  'adapters-sql-reads': SQL_READS,
  'adapters-sql-writes': SQL_WRITES,
  conformance: CONFORMANCE,
  'conformance-sql': CONFORMANCE_SQL,
  lib: LIB,
  ports: PORTS,
  host: HOST,
  'package-install': ['test/package/install.test.ts'],
  'package-node-versions': ['test/package/node-versions.test.ts'],
} as const satisfies Record<string, readonly string[]>;
