/** A source's SPDX license identifier as Blockscout's `license_type` names it (`none` when it has no such type). */
import type { LicenseType } from './records.ts';

const SPDX: readonly (readonly [RegExp, LicenseType])[] = [
  [/^unlicen[sc]e$/i, 'unlicense'],
  [/^mit$/i, 'mit'],
  [/^gpl-2\.0/i, 'gnu_gpl_v2'],
  [/^gpl-3\.0/i, 'gnu_gpl_v3'],
  [/^lgpl-2\.1/i, 'gnu_lgpl_v2_1'],
  [/^lgpl-3\.0/i, 'gnu_lgpl_v3'],
  [/^bsd-2-clause$/i, 'bsd_2_clause'],
  [/^bsd-3-clause$/i, 'bsd_3_clause'],
  [/^mpl-2\.0$/i, 'mpl_2_0'],
  [/^osl-3\.0$/i, 'osl_3_0'],
  [/^apache-2\.0$/i, 'apache_2_0'],
  [/^agpl-3\.0/i, 'gnu_agpl_v3'],
  [/^busl-1\.1$/i, 'bsl_1_1'],
];

/** `MIT` → `mit`, `GPL-3.0-or-later` → `gnu_gpl_v3`, `UNLICENSED`, an expression or null → `none`. */
export function licenseTypeOf(spdx: string | null): LicenseType {
  if (spdx === null) return 'none';
  const id = spdx.trim();
  return SPDX.find(([re]) => re.test(id))?.[1] ?? 'none';
}
