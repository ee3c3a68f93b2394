/** The contract creation rule: the transaction's creation, then its successful internal creates. */
import t from 'tap';
import { contractCreations } from '../../../../lib/summary/rules/contractCreation.ts';
import { ALICE, BOB, addr, input, internal, said } from '../build.ts';

t.test('a creation, then each internal create that succeeded, once', async (t) => {
  const made = addr(0xc0de);
  const child = addr(0xc0de2);
  const items = contractCreations(
    input(
      { to: null, createdContract: made },
      {
        internalTransactions: [
          internal(made, null, 0n, { type: 'create', createdContract: made }),
          internal(made, null, 0n, { type: 'create2', createdContract: child }),
          internal(made, null, 0n, { type: 'create', createdContract: addr(0xbad), error: 'out of gas' }),
          internal(ALICE, BOB, 1n),
        ],
      },
    ),
  );
  t.same(items.map(said), [`Deploy contract ${made}`, `Deploy contract ${child}`]);
  t.same(items[0]?.variables.contract_address, { type: 'address', address: made });
});

t.test('a call that creates nothing: no summary', async (t) => {
  t.same(contractCreations(input()), []);
});
