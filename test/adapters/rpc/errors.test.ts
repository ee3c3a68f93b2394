// The node's errors, each in its class, decided from the node's own code and message (not
// viem's generic wrapper text), and the node's message kept for the log.
import t from 'tap';
import { HttpRequestError, InvalidInputRpcError, RpcRequestError } from 'viem';
import { classify, FatalRpcError, FinalRpcError, nodeError, NotYetRpcError, RetryableRpcError } from '../../../adapters/rpc/index.ts';

/** a node error as viem hands it over: RpcRequestError wrapped by code (-32000 → InvalidInputRpcError) */
const geth = (code: number, message: string): Error => {
  const inner = new RpcRequestError({ url: 'http://x', body: {}, error: { code, message } });
  return code === -32000 ? new InvalidInputRpcError(inner) : inner;
};

t.test("the node's message is dug out of viem's wrapper", async (t) => {
  const e = geth(-32000, 'execution timeout');
  t.match(e.message, /Missing or invalid parameters/, "viem's text");
  t.same(nodeError(e), { code: -32000, status: null, message: 'execution timeout', retryAfterMs: null });
  t.match(classify(e).message, /^execution timeout \(code -32000\)/);
});

t.test('each error in its class', async (t) => {
  t.type(classify(geth(-32000, 'execution timeout')), RetryableRpcError, 'a trace timeout is retried');
  t.type(classify(geth(-32000, 'execution aborted (timeout = 5s)')), RetryableRpcError, 'an eth_call timeout is retried');
  t.type(classify(geth(-32000, 'header not found')), NotYetRpcError, 'a backend behind: not yet');
  t.type(classify(geth(-32000, 'block #1506 not found')), NotYetRpcError);
  const reverted = classify(geth(3, 'execution reverted'));
  t.type(reverted, FinalRpcError, 'a revert is an answer');
  t.equal((reverted as FinalRpcError).execution, true);
  t.equal((classify(geth(-32000, 'execution reverted')) as FinalRpcError).execution, true);
  t.type(classify(geth(-32000, 'missing trie node abc (path )')), FinalRpcError, 'no historical state: final');
  t.type(classify(geth(-32601, 'the method debug_traceBlockByNumber does not exist/is not available')), FinalRpcError);
  t.type(classify(geth(-32005, 'request rate exceeded')), RetryableRpcError);
  t.type(classify(new HttpRequestError({ url: 'http://x', status: 401, details: 'unauthorized' })), FatalRpcError);
  const limited = classify(new HttpRequestError({ url: 'http://x', status: 429, headers: new Headers({ 'retry-after': '2' }) }));
  t.type(limited, RetryableRpcError);
  t.equal((limited as RetryableRpcError).retryAfterMs, 2000, 'Retry-After kept');
  const page = classify(new HttpRequestError({ url: 'http://x', status: 502, details: '<html><h1>502 Bad Gateway</h1></html>' }));
  t.type(page, RetryableRpcError);
  t.match(page.message, /502 Bad Gateway/);
  t.type(classify(new HttpRequestError({ url: 'http://x', cause: new SyntaxError('Unexpected end of JSON input') })), RetryableRpcError, 'a body cut mid-JSON');
});
