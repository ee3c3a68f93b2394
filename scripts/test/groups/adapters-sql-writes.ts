// npm test's group "adapters-sql-writes" (scripts/quick/groups.ts TEST_GROUPS): its files one after another in this process.
import { TEST_GROUPS } from '../../quick/groups.ts';
import { runInOneProcess } from '../../quick/run.ts';

await runInOneProcess(TEST_GROUPS['adapters-sql-writes']);
