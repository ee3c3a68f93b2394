/**
 * `scoutkit migrate --db <url>`: apply the SQL store's pending migrations and say which ran.
 * (Opening a store for serve, index or seed applies them too; this is for deploy steps that
 * migrate before starting the servers.)
 */
import { parseArgs } from 'node:util';
import { redact } from '../stores.ts';

export const MIGRATE_HELP = `Usage: scoutkit migrate --db <url>

Apply pending schema migrations to a SQL store: sqlite:<path> or postgres://... .
Prints the migrations applied now and the store's current schema version. Running it again
applies nothing. (serve, index and seed also migrate on open.)`;

export async function runMigrateCommand(
  args: readonly string[],
  out: { write(s: string): void } = process.stdout,
): Promise<number> {
  const { values } = parseArgs({ args: [...args], strict: true, options: { db: { type: 'string' } } });
  if (values.db === undefined) throw new Error('give --db <url>');
  if (!/^sqlite:/.test(values.db) && !/^postgres(ql)?:\/\//.test(values.db)) {
    throw new Error(`migrate needs a SQL store (sqlite:<path> or postgres://...), not "${redact(values.db)}"`);
  }
  const { migrateSqlStore } = await import('../../adapters/sql/index.ts');
  const report = await migrateSqlStore(values.db);
  const where = redact(values.db);
  out.write(
    report.applied.length === 0
      ? `${where}: up to date (${report.current.length} migrations; latest ${report.current.at(-1) ?? 'none'})\n`
      : `${where}: applied ${report.applied.join(', ')} (latest ${report.current.at(-1) ?? 'none'})\n`,
  );
  return 0;
}
