import t from 'tap';
import { toJson } from '../../lib/index.ts';

t.equal(toJson({ a: 2n ** 70n, b: [1n, -5n] }), '{"a":1180591620717411303424,"b":[1,-5]}', 'bigints are exact numbers');
t.equal(toJson({ s: 'bigint:123', n: 1 }), '{"s":"bigint:123","n":1}', 'strings that look like markers stay strings');
t.equal(toJson({ x: 'plain' }), JSON.stringify({ x: 'plain' }), 'no bigint: the same as JSON.stringify');
t.match(toJson({ big: 9007199254740993n }), /"big":9007199254740993}/, "beyond 2^53: the exact digits, not a rounded double");
