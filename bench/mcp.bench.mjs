// MCP overhead: one tool call made by the SDK's own Client through `switchboard mcp` over stdio and
// over Streamable HTTP (the server a child process in both, as an MCP host runs it), against the
// same call made directly in a session (a turn whose scripted model makes the call). Wall time per
// call, calls one after another; the three run interleaved — 8 rounds, the order rotating each
// round — so all see the same machine. Reported: the median and the spread (min–max over rounds)
// of each one's time per call, and of each MCP transport's ratio to the direct call in the same
// round. The tool is a `log` tool (no network), so the figures are the MCP layer's own cost: the
// JSON-RPC framing, the transport, the SDK's validation and the turn each call runs as.
// Options (env): MCP_BENCH_ROUNDS (8), MCP_BENCH_CALLS (calls per transport per round; 300).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSession, loadTools } from '../dist/index.js';

const ROUNDS = Number(process.env.MCP_BENCH_ROUNDS ?? 8);
const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 300);
const WARMUP = 200;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cliPath = join(root, 'dist/cli/main.js');

const definitions = [
  {
    type: 'log',
    tool: {
      type: 'function',
      function: {
        name: 'note',
        description: 'Note the reason of the call.',
        parameters: {
          type: 'object',
          properties: { reason: { type: 'string' } },
          required: ['reason'],
        },
      },
    },
  },
];
const dir = mkdtempSync(join(tmpdir(), 'switchboard-mcp-bench-'));
const toolsFile = join(dir, 'tools.json');
writeFileSync(toolsFile, JSON.stringify(definitions));
const ARGS = { reason: 'billing question' };

// --- direct: a session whose model makes the call, then answers ----------------------------
const tools = await loadTools(definitions);
const call = { id: '', name: 'note', arguments: JSON.stringify(ARGS) };
const model = {
  name: 'bench',
  async *stream(request) {
    const last = request.messages[request.messages.length - 1];
    if (last?.role === 'user') yield { type: 'tool-call', call };
    yield { type: 'finish' };
  },
};
const session = createSession({ tools, model });
async function direct() {
  const r = await session.run('note it');
  if (r.traces.length !== 1 || r.traces[0].isError) throw new Error('direct: wrong result');
}

// --- MCP over stdio and over HTTP, the server a child process ------------------------------
const stdio = new Client({ name: 'bench', version: '1' });
await stdio.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', toolsFile],
    stderr: 'ignore',
  }),
);
const server = spawn(process.execPath, [cliPath, 'mcp', toolsFile, '--http', '127.0.0.1:0']);
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (c) => {
    out += c.toString();
    const m = /listening on (\S+)/.exec(out);
    if (m !== null) resolve(m[1]);
  });
  server.on('exit', (code) => reject(new Error(`switchboard mcp --http exited ${code}`)));
});
const http = new Client({ name: 'bench', version: '1' });
await http.connect(new StreamableHTTPClientTransport(new URL(url)));
const viaMcp = (client) => async () => {
  const r = await client.callTool({ name: 'note', arguments: ARGS });
  if (r.isError) throw new Error(`mcp: ${JSON.stringify(r.content)}`);
};

const peers = [
  ['direct', direct],
  ['stdio', viaMcp(stdio)],
  ['http', viaMcp(http)],
];
for (const [, run] of peers) for (let i = 0; i < WARMUP; i++) await run();

/** Microseconds per call over `n` calls. */
async function measure(run, n) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await run();
  return Number(process.hrtime.bigint() - t0) / 1e3 / n;
}

const times = new Map(peers.map(([name]) => [name, []]));
const ratios = { stdio: [], http: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order = peers.map((_, i) => peers[(i + round) % peers.length]);
  const got = new Map();
  for (const [name, run] of order) got.set(name, await measure(run, CALLS));
  for (const [name, us] of got) times.get(name).push(us);
  ratios.stdio.push(got.get('stdio') / got.get('direct'));
  ratios.http.push(got.get('http') / got.get('direct'));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const spread = (xs, f) => `[${f(Math.min(...xs))}–${f(Math.max(...xs))}]`;
const us = (x) => x.toFixed(0);
const times2 = (x) => x.toFixed(2);
console.log(`MCP call overhead: ${ROUNDS} rounds × ${CALLS} calls each, order rotating`);
for (const [name, xs] of times)
  console.log(`  ${name.padEnd(6)} ${us(median(xs))} µs per call ${spread(xs, us)}`);
for (const name of ['stdio', 'http'])
  console.log(
    `  ${name.padEnd(6)} ${times2(median(ratios[name]))}× the direct call ${spread(ratios[name], times2)}`,
  );

await stdio.close();
await http.close();
server.kill('SIGTERM');
await session.close();
