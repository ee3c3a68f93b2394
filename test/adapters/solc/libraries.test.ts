/**
 * settingsLibraries: the libraries a standard JSON's `settings.libraries` links (solc links them
 * itself, so no link reference is left to read them off), by `file:Name`, lower-case; the flat
 * `{Name: address}` form by `Name`; anything that is no address left out.
 */
import t from 'tap';
import { settingsLibraries } from '../../../adapters/solc/index.ts';

const A = '0x00000000000000000000000000000000000011B0';
const B = '0x00000000000000000000000000000000000022c0';

t.same(settingsLibraries({}), {}, 'none');
t.same(settingsLibraries({ libraries: 'nope' }), {}, 'not an object');
t.same(
  settingsLibraries({ libraries: { 'src/MathLib.sol': { MathLib: A, Other: 'junk' }, 'src/B.sol': { B } } }),
  { 'src/MathLib.sol:MathLib': A.toLowerCase(), 'src/B.sol:B': B },
  'by file:Name, lower-case; junk left out',
);
t.same(settingsLibraries({ libraries: { MathLib: A, Short: '0x12' } }), { MathLib: A.toLowerCase() }, 'the flat form by Name');
