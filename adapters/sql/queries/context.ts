/** What every query of the SQL reader runs on: the knex instance of reads and the dialect. */
import type { Knex } from 'knex';
import type { Binding, Dialect } from '../dialect.ts';
import type { Row } from '../rows.ts';
import { asRows } from '../rows.ts';

export interface SqlContext {
  readonly knex: Knex;
  readonly d: Dialect;
  /** a raw statement's rows */
  raw(sql: string, bindings: readonly Binding[]): Promise<Row[]>;
}

export function sqlContext(knex: Knex, d: Dialect): SqlContext {
  return {
    knex,
    d,
    raw: async (sql, bindings) => asRows(d.rawRows(await knex.raw(sql, [...bindings]))),
  };
}
