// The benchmarks' bare baseline call (endpoint, turn-http, turn-parts): undici's low-level
// `dispatch` with a handler that collects the body and `JSON.parse`s it, the leanest undici path.
// Resolves with the parsed body; rejects on a status other than 200 or a body `accept` refuses.

/** One call of `options` (undici dispatch options) on `agent`. */
export function dispatchJson(agent, options, accept = () => true) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let status = 0;
    agent.dispatch(options, {
      onRequestStart() {},
      onResponseStart(_c, statusCode) {
        status = statusCode;
      },
      onResponseData(_c, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        const value =
          status === 200 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
        if (status !== 200 || !accept(value)) reject(new Error(`bare call: ${status}`));
        else resolve(value);
      },
      onResponseError(_c, err) {
        reject(err);
      },
    });
  });
}
