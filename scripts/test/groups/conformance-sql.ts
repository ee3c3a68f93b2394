// npm test's group "conformance-sql" (scripts/quick/groups.ts TEST_GROUPS): its files one after another in this process.
import t from 'tap';
import { TEST_GROUPS } from '../../quick/groups.ts';
import { runInOneProcess } from '../../quick/run.ts';

// the group's own cap, a guard against a hang: its files together wait on the databases longer than npm test's 300 s a file
t.setTimeout(900_000);
await runInOneProcess(TEST_GROUPS['conformance-sql']);
