// npm test's group "package-node-versions" (scripts/quick/groups.ts TEST_GROUPS): one slow file, started first.
import { TEST_GROUPS } from '../../quick/groups.ts';
import { runInOneProcess } from '../../quick/run.ts';

await runInOneProcess(TEST_GROUPS['package-node-versions']);
