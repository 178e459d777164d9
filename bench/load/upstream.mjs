// Load harness upstream: an HTTP server in its own process (loopback only) standing in for the
// services tools call. POST /orders answers after --latency ms, POST /slow after --slow-latency
// ms; --fault-rate of the requests fail (half with HTTP 503, half with a reset connection). Every
// request's `ref` is counted, so the driver can prove no side-effecting call was made twice.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    latency: { type: 'string', default: '20' },
    'slow-latency': { type: 'string', default: '10000' },
    'fault-rate': { type: 'string', default: '0' },
  },
});
const latency = Number(values.latency);
const slowLatency = Number(values['slow-latency']);
const faultRate = Number(values['fault-rate']);
const counts = new Map();
let requests = 0;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    requests++;
    let ref = '';
    try {
      ref = String(JSON.parse(Buffer.concat(chunks).toString()).ref ?? '');
    } catch {
      // counted under ''
    }
    counts.set(ref, (counts.get(ref) ?? 0) + 1);
    const delay = req.url === '/slow' ? slowLatency : latency;
    setTimeout(() => {
      const roll = Math.random();
      if (roll < faultRate / 2) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"error":"busy"}');
      } else if (roll < faultRate) {
        req.socket.destroy();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, ref }));
      }
    }, delay);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send({ type: 'ready', port: server.address().port });
});
process.on('message', (message) => {
  if (message.type === 'stats') {
    const twice = [...counts].filter(([, n]) => n > 1).map(([ref, n]) => ({ ref, n }));
    process.send({ type: 'stats', requests, refs: counts.size, twice });
  }
});
process.on('disconnect', () => process.exit(0));
