/**
 * The `scoutkit` command line. `main(argv)` returns the exit code; run directly, it exits.
 */
import { pathToFileURL } from 'node:url';
import { flushLogs } from './log.ts';
import { runServeCommand, SERVE_HELP } from './commands/serve.ts';

export { parseServeArgs } from './commands/serve.ts';
export type { ServeArgs } from './commands/serve.ts';

// Each command's module loads when that command runs (or shows its help): `serve` never loads
// the indexer, the RPC reader or the demo, which keeps the server's memory down.
interface Command {
  readonly summary: string;
  help(): Promise<string>;
  run(args: readonly string[]): Promise<number>;
}

const demo = () => import('./commands/demo.ts');
const index = () => import('./commands/index.ts');
const seed = () => import('./commands/seed.ts');
const migrate = () => import('./commands/migrate.ts');
const verify = () => import('./commands/verify.ts');

const COMMANDS: Readonly<Record<string, Command>> = {
  serve: { summary: 'serve the explorer API over HTTP', help: async () => SERVE_HELP, run: runServeCommand },
  index: {
    summary: 'fill a store from an EVM JSON-RPC node',
    help: async () => (await index()).INDEX_HELP,
    run: async (args) => (await index()).runIndexCommand(args),
  },
  demo: {
    summary: 'local anvil + demo contracts, indexed into SQLite and served',
    help: async () => (await demo()).DEMO_HELP,
    run: async (args) => (await demo()).runDemoCommand(args),
  },
  seed: {
    summary: 'write the test fixture chain into a store (a developer aid)',
    help: async () => (await seed()).SEED_HELP,
    run: async (args) => (await seed()).runSeedCommand(args),
  },
  migrate: {
    summary: 'apply pending schema migrations to a SQL store',
    help: async () => (await migrate()).MIGRATE_HELP,
    run: async (args) => (await migrate()).runMigrateCommand(args),
  },
  verify: {
    summary: "verify one indexed contract from a project's build info or its standard JSON",
    help: async () => (await verify()).VERIFY_HELP,
    run: async (args) => (await verify()).runVerifyCommand(args),
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`);
  return `Usage: scoutkit <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "scoutkit <command> --help" for a command's options.`;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] ? COMMANDS[rest[0]] : undefined;
    process.stdout.write(`${topic ? await topic.help() : usage()}\n`);
    return name === undefined ? 1 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`scoutkit: unknown command "${name}"\n\n${usage()}\n`);
    return 1;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${await command.help()}\n`);
    return 0;
  }
  // the lines a command logged through the buffered outputs (host/log.ts, serve's) are out
  // before it returns, and before its error
  try {
    return await command.run(rest);
  } catch (e) {
    await flushLogs();
    process.stderr.write(`scoutkit ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  } finally {
    await flushLogs();
  }
}

// `tsx host/cli.ts ...` runs it too; bin/scoutkit.ts calls main itself
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exit(await main(process.argv.slice(2)));
}
