/**
 * Summary items → the API's `Summary` body: an `address` variable becomes the Address object,
 * a `token` one the Token object (as Blockscout merges its own JSON into the interpreter's
 * variables), the rest pass as they are.
 */
import type * as t from 'io-ts';
import type { Address, TokenRecord } from '../domain/records.ts';
import { renderAddress } from '../render/address.ts';
import type { RenderContext } from '../render/context.ts';
import { renderToken, unknownToken } from '../render/token.ts';
import type { Summary, SummaryVariable as SummaryVariableCodec } from '../schema/summary.ts';
import type { SummaryItem, SummaryVariable } from './types.ts';

export type SummaryJson = t.OutputOf<typeof Summary>;
type VariableJson = t.OutputOf<typeof SummaryVariableCodec>;

/** The addresses a summary's variables name (to load them before rendering). */
export function summaryAddresses(items: readonly SummaryItem[]): Address[] {
  return items.flatMap((i) => Object.values(i.variables).flatMap((v) => (v.type === 'address' ? [v.address] : [])));
}

function variable(v: SummaryVariable, ctx: RenderContext, tokens: ReadonlyMap<Address, TokenRecord>): VariableJson {
  if (v.type === 'address') return { type: 'address', value: renderAddress(v.address, ctx) };
  if (v.type === 'token') return { type: 'token', value: renderToken(tokens.get(v.token) ?? unknownToken(v.token, v.tokenType)) };
  return { type: v.type, value: v.value };
}

export function renderSummary(items: readonly SummaryItem[], ctx: RenderContext, tokens: ReadonlyMap<Address, TokenRecord>): SummaryJson {
  return {
    success: true,
    data: {
      summaries: items.map((i) => ({
        summary_template: i.template,
        summary_template_variables: Object.fromEntries(Object.entries(i.variables).map(([name, v]) => [name, variable(v, ctx, tokens)])),
      })),
    },
  };
}
