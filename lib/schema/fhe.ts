/** A transaction's FHE operations (Blockscout 11.2.7 `FheOperationsResponse`): none are indexed. */
import * as t from 'io-ts';
import { component, withSchema } from '../openapi/jsonSchema.ts';
import { emptyList } from './scalars.ts';

/** The integer 0: a metric over no FHE operations. */
const Zero = withSchema(t.literal(0), { type: 'integer', enum: [0], description: 'no FHE operations are indexed: always 0' });

export const FheOperations = component(
  'FheOperations',
  t.type({
    items: emptyList('FHE operations (fhEVM coprocessor events) are not indexed'),
    total_hcu: Zero,
    max_depth_hcu: Zero,
    operation_count: Zero,
  }),
);
