// Diagnostic (not part of `npm run bench`): how much of the engine's CPU per turn over bare undici
// the shape of an engine turn costs by itself, before any of the engine's own work. Eight sides run
// the turn-http turn (N paced sessions, one `post` to a loopback server in a child process
// answering after 20 ms) in one process, their phases alternating (A B … H, H … B A, …):
//   bare      the call alone (undici `dispatch`, JSON parsed), as turn-http's bare side;
//   shape     the same call inside the engine's async layers and awaits, doing nothing else: a
//             session queue, the turn, two rounds each reading a ready model stream with
//             `for await`, the tool call, the handler, the call (`ShapeSession` below);
//   +history  shape, keeping the engine's four history messages per turn in the session;
//   +filler   shape, allocating per turn as many bytes as the engine allocates beyond shape
//             (measured below), in objects alive until the turn ends;
//   sized     shape with both;
//   engine    switchboard's turn (createSession, ScriptedModel, the endpoint tool);
//   action    switchboard's turn with the call made by a host action instead of the endpoint
//             tool (the action returns bare's call): engine − action is what the endpoint
//             handler costs in a paced turn, action − bare what the session around a call costs;
//   lean      the least a turn of this product does, in straight-line code (`LeanSession` below):
//             the session queue, the scripted model's two streams, the arguments parsed and
//             validated (the tool's own validator), the idempotency key, the request sent and
//             its answer parsed, the tool message, four history messages, the events and one
//             trace, and nothing configurable (no transforms, limits, deadline, workflows, voice).
// engine − sized is then the engine's own work (templates, request, response, events, traces,
// records); sized − bare what any engine of this shape and allocation would cost; lean − bare
// what a turn of this product costs at least, however it is built.
//
// First a census of each side's allocation per turn (V8's sampling heap profiler at a 1-byte
// interval, so every allocation: 20 sessions in a closed loop), which sizes `sized`'s filler; then
// the paced rounds. Per side: median CPU per turn (process.cpuUsage ÷ turns) and its ratio to bare,
// and the collections V8 reports on the main thread (scavenges, full GCs, their pause).
//   node bench/turn-floor.mjs [--sessions 1000] [--turns 10] [--rounds 4] [--only bare,engine,lean]
// (`--only`: those sides and bare; `sized` and its parts need `shape` and `engine` for their census.)
import { hash } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { createSession, loadTools } from '../../dist/index.js';
import { ScriptedModel } from '../../dist/testing.js';
import { positive } from '../args.mjs';
import { dispatchJson } from '../bare-dispatch.mjs';
import { everyAllocation } from './every-allocation.mjs';
import {
  checkOrderTurn,
  ORDER_ANSWER,
  ORDER_TEXT,
  orderDefinition,
  orderPlaced,
  orderRequest,
  orderScript,
  pacer,
  startUpstream,
} from '../order-tool.mjs';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1000' },
    turns: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '4' },
    only: { type: 'string' },
  },
});
const n = positive('sessions', values.sessions, 10_000);
const turns = positive('turns', values.turns, 1000);
const rounds = positive('rounds', values.rounds, 20);

const { upstream, origin } = await startUpstream(20);
const agent = new Agent();
const ORDER = orderRequest(origin);
const bareCall = () => dispatchJson(agent, ORDER, orderPlaced);

// --- shape: the engine's layers around the same call ------------------------------------------
// The parts of the two model answers, as the scripted model streams them: a tool call, then text.
const CALL_PARTS = [
  {
    type: 'tool-call',
    call: { id: 'call_1', name: 'place_order', arguments: JSON.stringify({ ref: 'r' }) },
  },
  { type: 'finish' },
];
const TEXT_PARTS = [{ type: 'text-delta', text: ORDER_ANSWER }, { type: 'finish' }];
const DONE = Object.freeze({ done: true, value: undefined });

/** A ready model stream read with `for await`, as the scripted model's step without delay. */
class ReadyStream {
  #parts;
  #at = 0;
  constructor(parts) {
    this.#parts = parts;
  }
  [Symbol.asyncIterator]() {
    return this;
  }
  next() {
    const part = this.#parts[this.#at++];
    return Promise.resolve(part === undefined ? DONE : { done: false, value: part });
  }
}

/** Per turn: filler objects (alive until the turn ends); set from the census. */
let fillerObjects = 0;
// Six fields: one allocation of 72 bytes in Node's V8 (no pointer compression), about the
// average size of what the engine allocates beyond shape.
const filler = (k) => ({ k, a: k, b: k, c: k, d: k, e: k });
function allocate() {
  const kept = [];
  for (let k = 0; k < fillerObjects; k++) kept.push(filler(k));
  return kept;
}

/** A session's turns, one at a time; a subclass's `turn(text)` runs one. */
class QueuedSession {
  #queue = Promise.resolve();
  // As the engine's: the queue is the turn itself and settles with nothing; the result goes to
  // the caller's promise, so the queue keeps nothing of a turn alive until the next one.
  run(text) {
    return new Promise((deliver) => {
      this.#queue = this.#queued(this.#queue, text, deliver);
    });
  }
  async #queued(previous, text, deliver) {
    await previous;
    deliver(await this.turn(text));
  }
}

/** The layers of one engine turn around one call; `filler` and `history` add what they name. */
class ShapeSession extends QueuedSession {
  #history = [];
  #filler;
  #keepHistory;
  constructor({ filler, history }) {
    super();
    this.#filler = filler;
    this.#keepHistory = history;
  }
  async turn(text) {
    const records = this.#filler ? allocate() : undefined;
    if (this.#keepHistory) this.#history.push({ role: 'user', content: text });
    const first = await this.#round(CALL_PARTS);
    const second = await this.#round(TEXT_PARTS);
    return { content: second.text, traces: first.traces, records };
  }
  async #round(parts) {
    let text = '';
    let pending;
    let result;
    const traces = [];
    for await (const part of new ReadyStream(parts)) {
      if (part.type === 'text-delta') text += part.text;
      else if (part.type === 'tool-call')
        pending = this.#execute(part.call).then((r) => {
          result = r;
          traces.push({ callId: part.call.id, output: r.output });
        });
    }
    if (pending !== undefined) await pending;
    if (this.#keepHistory) {
      const content = text === '' ? null : text;
      if (result === undefined) this.#history.push({ role: 'assistant', content });
      else {
        const { id, name, arguments: args } = result.call;
        this.#history.push({
          role: 'assistant',
          content,
          tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
        });
        this.#history.push({ role: 'tool', tool_call_id: id, content: result.content });
      }
    }
    return { text, traces };
  }
  async #execute(call) {
    const output = await this.#handler();
    return { call, output, content: JSON.stringify(output) };
  }
  async #handler() {
    return await bareCall();
  }
}

// --- the sides -----------------------------------------------------------------------------------
const tools = await loadTools([orderDefinition(origin)]);
const scripts = new Map();
const scriptOf = (length) => {
  let script = scripts.get(length);
  if (script === undefined) scripts.set(length, (script = orderScript(length)));
  return script;
};

// --- lean: the least a turn does, straight-line ------------------------------------------------
const ORDER_TOOL = tools.tools.get('place_order');
const CHAT_TOOLS = [ORDER_TOOL.tool];
const NEVER = new AbortController().signal;
let leanIds = 0;
/** One session whose turn does the product's minimum work in one function (header above). */
class LeanSession extends QueuedSession {
  #history = [];
  #model;
  #id = `lean-${leanIds++}`;
  #turns = 0;
  constructor(length) {
    super();
    this.#model = new ScriptedModel(scriptOf(length));
  }
  async turn(text) {
    const startedAt = performance.now();
    const events = [{ type: 'turn-start', turn: ++this.#turns }];
    const traces = [];
    this.#history.push({ role: 'user', content: text });
    let content = '';
    for (;;) {
      let said = '';
      let call;
      const request = { messages: this.#history, tools: CHAT_TOOLS, signal: NEVER };
      for await (const part of this.#model.stream(request)) {
        if (part.type === 'text-delta') {
          said += part.text;
          events.push({ type: 'text-delta', text: part.text });
        } else if (part.type === 'tool-call') call = part.call;
      }
      if (call === undefined) {
        this.#history.push({ role: 'assistant', content: said });
        content = said;
        break;
      }
      events.push({
        type: 'tool-call',
        callId: call.id,
        tool: call.name,
        rawArguments: call.arguments,
      });
      const args = JSON.parse(call.arguments);
      if (!ORDER_TOOL.validator.validate(args).ok) throw new Error('lean turn: invalid arguments');
      const calledAt = performance.now();
      const headers = {
        ...ORDER.headers,
        'idempotency-key': hash('sha256', `${this.#id}\u0000${call.id}`, 'hex').slice(0, 32),
      };
      const output = await dispatchJson(
        agent,
        { origin, path: ORDER.path, method: 'POST', headers, body: JSON.stringify(args) },
        orderPlaced,
      );
      traces.push({
        tool: call.name,
        callId: call.id,
        arguments: args,
        output,
        durationMs: performance.now() - calledAt,
      });
      events.push({
        type: 'tool-result',
        callId: call.id,
        tool: call.name,
        output,
        isError: false,
      });
      this.#history.push({
        role: 'assistant',
        content: said === '' ? null : said,
        tool_calls: [
          {
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          },
        ],
      });
      this.#history.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) });
    }
    events.push({ type: 'turn-end', content, timings: { totalMs: performance.now() - startedAt } });
    return { content, traces, events };
  }
}

const actionTools = await loadTools([{ type: 'action', tool: orderDefinition(origin).tool }]);
const actionSession = (length) => {
  const session = createSession({
    tools: actionTools,
    model: new ScriptedModel(scriptOf(length)),
    actions: { place_order: () => bareCall() },
  });
  return {
    run: async () => checkOrderTurn(await session.run(ORDER_TEXT)),
    close: () => session.close(),
  };
};
const engineSession = (length) => {
  const session = createSession({ tools, model: new ScriptedModel(scriptOf(length)) });
  return {
    run: async () => checkOrderTurn(await session.run(ORDER_TEXT)),
    close: () => session.close(),
  };
};
const shapeCheck = (r) => {
  if (r.content !== ORDER_ANSWER || r.traces[0]?.output?.ok !== true)
    throw new Error(`shape turn failed: ${JSON.stringify(r)}`);
};
const shapeSession = (parts) => () => {
  const session = new ShapeSession(parts);
  return { run: async () => shapeCheck(await session.run(ORDER_TEXT)), close: async () => {} };
};
const allSides = [
  { name: 'bare', open: () => ({ run: bareCall, close: async () => {} }), phases: [] },
  { name: 'shape', open: shapeSession({ filler: false, history: false }), phases: [] },
  { name: '+history', open: shapeSession({ filler: false, history: true }), phases: [] },
  { name: '+filler', open: shapeSession({ filler: true, history: false }), phases: [] },
  { name: 'sized', open: shapeSession({ filler: true, history: true }), phases: [] },
  { name: 'engine', open: engineSession, phases: [] },
  { name: 'action', open: actionSession, phases: [] },
  {
    name: 'lean',
    open: (length) => {
      const session = new LeanSession(length);
      return { run: async () => shapeCheck(await session.run(ORDER_TEXT)), close: async () => {} };
    },
    phases: [],
  },
];
const chosen = values.only === undefined ? undefined : new Set(['bare', ...values.only.split(',')]);
for (const name of chosen ?? [])
  if (!allSides.some((s) => s.name === name))
    throw new Error(
      `--only: no side ${JSON.stringify(name)}; sides: ${allSides.map((s) => s.name).join(', ')}`,
    );
const sides = chosen === undefined ? allSides : allSides.filter((s) => chosen.has(s.name));
const side = (name) => sides.find((s) => s.name === name);
const has = (name) => side(name) !== undefined;

// --- census: allocation per turn ---------------------------------------------------------------
const inspector = new Session();
inspector.connect();
const CENSUS_SESSIONS = 20;
const CENSUS_WARM = 300;
const CENSUS_TURNS = 20;
/** Bytes and allocations per turn of `s`, closed loop, after a warm-up. */
async function census(s) {
  const live = Array.from({ length: CENSUS_SESSIONS }, () => s.open(CENSUS_WARM + CENSUS_TURNS));
  const loop = (count) =>
    Promise.all(
      live.map(async (session) => {
        for (let t = 0; t < count; t++) await session.run();
      }),
    );
  await loop(CENSUS_WARM);
  const profile = await everyAllocation(inspector, () => loop(CENSUS_TURNS));
  await Promise.all(live.map((session) => session.close()));
  const per = CENSUS_SESSIONS * CENSUS_TURNS;
  let bytes = 0;
  for (const { size } of profile.samples) bytes += size;
  return { bytes: bytes / per, count: profile.samples.length / per };
}
for (const name of ['bare', 'shape', 'engine', 'action', 'lean'])
  if (has(name)) side(name).census = await census(side(name));
const sizing = has('shape') && has('engine');
for (const name of ['sized', '+history', '+filler'])
  if (has(name) && !sizing) throw new Error(`--only: ${name} needs shape and engine`);
// Sized to the engine's bytes per turn: a first guess, then corrected by what it measured (the
// filler's array and the history messages count too).
const target = sizing ? side('engine').census.bytes - side('shape').census.bytes : 0;
fillerObjects = Math.max(0, Math.round(target / 72));
for (let pass = 0; sizing && pass < 2; pass++) {
  side('sized').census = await census(side('sized'));
  const per =
    (side('sized').census.bytes - side('shape').census.bytes) / Math.max(1, fillerObjects);
  fillerObjects = Math.max(
    0,
    Math.round(fillerObjects + (side('engine').census.bytes - side('sized').census.bytes) / per),
  );
}
for (const name of ['sized', '+history', '+filler'])
  if (has(name)) side(name).census = await census(side(name));
inspector.disconnect();

// --- paced rounds ------------------------------------------------------------------------------
// The collections V8 reports on the main thread: count and pause, young (scavenge) and full.
const gcs = { young: 0, youngMs: 0, full: 0, fullMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR ? 'young' : 'full';
    gcs[kind]++;
    gcs[`${kind}Ms`] += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

/** One paced phase: n sessions × `turns` turns; CPU per turn and the collections in it. */
async function phase(s, sessions, perSession) {
  await new Promise((ok) => setTimeout(ok, 300));
  const live = Array.from({ length: sessions }, () => s.open(perSession));
  const gc0 = { ...gcs };
  const cpu0 = process.cpuUsage();
  await Promise.all(
    live.map(async (session, i) => {
      const pace = pacer(i, sessions, 1000);
      for (let t = 0; t < perSession; t++) {
        await pace.next();
        await session.run();
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  await Promise.all(live.map((session) => session.close()));
  const total = sessions * perSession;
  return {
    cpu: (cpu.user + cpu.system) / total,
    // Per 10,000 turns: collections, and their main-thread pause in µs per turn.
    young: ((gcs.young - gc0.young) * 10_000) / total,
    full: ((gcs.full - gc0.full) * 10_000) / total,
    pause: ((gcs.youngMs - gc0.youngMs + gcs.fullMs - gc0.fullMs) * 1000) / total,
  };
}

for (const s of sides) await phase(s, 50, 20); // JIT and pools
for (let r = 0; r < rounds; r++)
  for (const s of r % 2 === 0 ? sides : [...sides].reverse())
    s.phases.push(await phase(s, n, turns));
upstream.kill();
await agent.close();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
console.log(
  `N = ${n} sessions × ${turns} turns per phase, 1,000 turns/s offered, upstream 20 ms, ${rounds} rounds` +
    (sizing
      ? `\nsized's filler: ${fillerObjects} objects per turn, plus 4 history messages kept`
      : ''),
);
const of = (s, key) => median(s.phases.map((p) => p[key]));
const bare = of(side('bare'), 'cpu');
for (const s of sides) {
  const cpu = of(s, 'cpu');
  console.log(
    `  ${s.name.padEnd(8)} CPU ${cpu.toFixed(0).padStart(4)} µs/turn, ${(cpu / bare).toFixed(2)}× bare` +
      ` | allocates ${s.census.bytes.toFixed(0)} B in ${s.census.count.toFixed(0)} objects per turn` +
      ` | per 10,000 turns ${of(s, 'young').toFixed(0)} scavenges, ${of(s, 'full').toFixed(0)} full GCs,` +
      ` pause ${of(s, 'pause').toFixed(1)} µs/turn | phases ${s.phases.map((p) => p.cpu.toFixed(0)).join(' ')}`,
  );
}
