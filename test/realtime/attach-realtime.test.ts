/**
 * attachRealtime against a loopback Realtime server (the documented event shapes, over TLS, with
 * the `openai` package's own OpenAIRealtimeWS client): the same pipeline as a text session.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { actionResult } from '../../src/handlers/action-result.js';
import { startTestServer, type TestServer } from '../handlers/test-server.js';
import { realtimeRig, until, type RealtimeRig } from './helpers.js';

const note = {
  type: 'log',
  tool: {
    type: 'function',
    function: {
      name: 'note',
      description: 'Note something.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
  },
};
const hangup = {
  type: 'action',
  tool: {
    type: 'function',
    function: { name: 'hangup', parameters: { type: 'object', properties: {} } },
  },
};
const language = {
  type: 'context',
  tool: {
    type: 'function',
    function: {
      name: 'set_language',
      parameters: {
        type: 'object',
        properties: { language: { type: 'string' } },
        required: ['language'],
      },
    },
  },
  defaults: { message: { transform: { action: 'default', value: 'Claro, en español.' } } },
};
function endpoint(origin: string, name: string, method: string, path: string, extra: object = {}) {
  return {
    type: 'endpoint',
    tool: {
      type: 'function',
      function: {
        name,
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
      },
    },
    endpoint: {
      url: `${origin}${path}`,
      method,
      argument_location: method === 'get' ? 'query' : 'body',
    },
    static_parameters: [{ name: 'units', type: 'string', default: 'metric' }],
    ...extra,
  };
}

let rig: RealtimeRig | undefined;
let http: TestServer | undefined;
afterEach(async () => {
  await rig?.close();
  await http?.close();
  rig = undefined;
  http = undefined;
});

describe('attachRealtime', () => {
  it('sends the rendered prompt and the tools (static parameters hidden) with session.update', async () => {
    http = await startTestServer();
    rig = await realtimeRig({
      tools: [endpoint(http.origin, 'weather', 'get', '/w')],
      steps: [],
      session: { prompt: 'You help {{vars.name}}.', vars: { 'vars.name': 'Ada' } },
    });
    await until(() => rig!.server.config.instructions !== '', 'session.update');
    expect(rig.server.config.instructions).toBe('You help Ada.');
    const tool = rig.server.config.tools[0] as { name: string; parameters: { properties: object } };
    expect(tool.name).toBe('weather');
    expect(Object.keys(tool.parameters.properties)).toEqual(['city']);
  });

  it('answers parallel calls with one function_call_output each, then one response.create', async () => {
    http = await startTestServer();
    http.route('/w', (req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ url: req.url })),
    );
    rig = await realtimeRig({
      tools: [endpoint(http.origin, 'weather', 'get', '/w')],
      steps: [
        {
          text: 'Checking both.',
          tool_calls: [
            { name: 'weather', args: { city: 'Paris' }, id: 'c_paris' },
            { name: 'weather', args: { city: 'Oslo' }, id: 'c_oslo' },
          ],
        },
        { text: 'Both are fine.' },
      ],
    });
    const result = await rig.attachment.session.run('Weather in Paris and Oslo?');
    expect(result.content).toBe('Both are fine.');
    expect(result.traces.map((t) => [t.callId, t.args])).toEqual([
      ['c_paris', { city: 'Paris', units: 'metric' }],
      ['c_oslo', { city: 'Oslo', units: 'metric' }],
    ]);
    const types = rig.server.received.map((e) => e.type);
    const outputs = rig
      .sent('conversation.item.create')
      .filter((e) => (e.item as { type: string }).type === 'function_call_output');
    expect(outputs.map((e) => (e.item as { call_id: string }).call_id)).toEqual([
      'c_paris',
      'c_oslo',
    ]);
    // user item, response.create, 2 outputs, exactly one response.create for the batch
    const lastOutput = types.lastIndexOf('conversation.item.create');
    expect(types.slice(lastOutput + 1)).toEqual(['response.create']);
    expect(types.filter((t) => t === 'response.create')).toHaveLength(2);
    // one record: the history holds the model's transcript and the tool results
    const history = rig.attachment.session.toJSON().history;
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(history[1]).toMatchObject({ content: 'Checking both.' });
    rig.brain.assertComplete();
  });

  it('runs a turn the caller started by speaking, and records the transcript when it arrives', async () => {
    rig = await realtimeRig({
      tools: [note],
      steps: [
        { tool_calls: [{ name: 'note', args: { text: 'call back' }, id: 'n1' }] },
        { text: 'Noted.' },
      ],
    });
    rig.server.callerSays('Please note: call me back.', { transcriptDelayMs: 40 });
    await until(() => rig!.events.some((e) => e.type === 'turn-end'), 'turn-end');
    await until(
      () =>
        rig!.attachment.session.toJSON().history[0]?.role === 'user' &&
        (rig!.attachment.session.toJSON().history[0] as { content: string }).content !== '',
      'transcript',
    );
    const history = rig.attachment.session.toJSON().history;
    expect(history[0]).toEqual({ role: 'user', content: 'Please note: call me back.' });
    expect(rig.events.find((e) => e.type === 'log')).toMatchObject({
      tool: 'note',
      args: { text: 'call back' },
    });
    // the caller's audio item is the server's own: it is never sent back as text
    expect(
      rig
        .sent('conversation.item.create')
        .every((e) => (e.item as { type: string }).type !== 'message'),
    ).toBe(true);
    rig.brain.assertComplete();
  });

  it('speaks a bridge phrase while a slow endpoint runs, as a verbatim response', async () => {
    http = await startTestServer();
    http.route('/slow', (_req, res) =>
      setTimeout(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
        250,
      ),
    );
    rig = await realtimeRig({
      tools: [endpoint(http.origin, 'lookup', 'get', '/slow')],
      steps: [{ tool_calls: [{ name: 'lookup', args: { city: 'Rome' } }] }, { text: 'Found it.' }],
      session: {
        bridge: { thresholdSecs: 0.05, phrases: { lookup: { '*': ['One moment please.'] } } },
      },
    });
    const result = await rig.attachment.session.run('Look up Rome');
    expect(result.content).toBe('Found it.');
    const says = rig
      .sent('response.create')
      .filter((e) => typeof (e.response as { instructions?: string }).instructions === 'string');
    // Timing-dependent count (phrases repeat while the call runs); each one is a verbatim say.
    expect(says.length).toBeGreaterThanOrEqual(1);
    for (const say of says) {
      const response = say.response as { instructions: string; tool_choice: string };
      expect(response.instructions).toMatch(/\nOne moment please\.$/);
      expect(response.tool_choice).toBe('none');
    }
    await rig.server.idle();
    expect(
      rig.server.items.some(
        (i) => i.type === 'message' && i.role === 'assistant' && i.text === 'One moment please.',
      ),
    ).toBe(true);
  });

  it('switches language with session.update of the transcription language and speaks the message', async () => {
    rig = await realtimeRig({
      tools: [language],
      steps: [
        { tool_calls: [{ name: 'set_language', args: { language: 'es-US' } }] },
        { text: '¿En qué le ayudo?' },
      ],
      session: { languages: ['en-US', 'es-US'] },
    });
    const result = await rig.attachment.session.run('¿Español?');
    expect(result.state.language).toBe('es-US');
    await until(() => rig!.server.config.transcriptionLanguage === 'es', 'transcription language');
    const says = rig
      .sent('response.create')
      .filter((e) => typeof (e.response as { instructions?: string }).instructions === 'string');
    expect((says[0]!.response as { instructions: string }).instructions).toMatch(
      /\nClaro, en español\.$/,
    );
  });

  it('hangs up only after the response with the farewell is done, and ends the session', async () => {
    rig = await realtimeRig({
      tools: [hangup],
      steps: [
        {
          text: ['Goodbye, ', 'thanks for calling!'],
          tool_calls: [{ name: 'hangup', args: {} }],
          delayMs: 20,
        },
      ],
      session: {
        actions: { hangup: () => actionResult({ endSession: true, result: { status: 'ended' } }) },
      },
    });
    const result = await rig.attachment.session.run('Bye');
    expect(result.state.ended).toBe(true);
    const action = rig.log.indexOf('ACTION:hangup');
    expect(action).toBeGreaterThan(rig.log.indexOf('response.output_audio_transcript.done'));
    expect(action).toBeGreaterThan(rig.log.indexOf('response.done'));
    // no second model call after the session ended
    expect(rig.sent('response.create')).toHaveLength(1);
  });

  it('barge-in during a POST: the turn is interrupted, the POST finishes and its output is still sent', async () => {
    http = await startTestServer();
    let arrived = false;
    http.route('/book', (_req, res) => {
      arrived = true;
      setTimeout(
        () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"B-7"}'),
        150,
      );
    });
    rig = await realtimeRig({
      tools: [endpoint(http.origin, 'book', 'post', '/book')],
      steps: [{ tool_calls: [{ name: 'book', args: { city: 'Lima' }, id: 'b1' }] }],
    });
    const turn = rig.attachment.session.send('Book Lima');
    await until(() => arrived, 'the POST');
    rig.server.bargeIn();
    const result = await turn.result;
    expect(result.interrupted).toBe(true);
    expect(result.traces[0]).toMatchObject({ callId: 'b1', isError: false, output: { id: 'B-7' } });
    await until(
      () => rig!.server.items.some((i) => i.type === 'function_call_output' && i.call_id === 'b1'),
      'output sent',
    );
    // no response was asked for the interrupted turn's results
    expect(rig.sent('response.create')).toHaveLength(1);
  });

  it('answers malformed arguments and unknown tools with tool errors the model sees', async () => {
    rig = await realtimeRig({
      tools: [note],
      steps: [
        {
          tool_calls: [
            { name: 'note', args: '{"text": ', id: 'bad' },
            { name: 'fly', args: {}, id: 'ghost' },
          ],
        },
        { text: 'Sorry, let me retry.' },
      ],
    });
    const result = await rig.attachment.session.run('note it');
    expect(result.traces.map((t) => t.errorCode)).toEqual(['invalid_arguments', 'unknown_tool']);
    const outputs = rig.server.items.filter((i) => i.type === 'function_call_output');
    expect(
      outputs.map((o) =>
        o.type === 'function_call_output' ? [o.call_id, JSON.parse(o.output).error.code] : [],
      ),
    ).toEqual([
      ['bad', 'invalid_arguments'],
      ['ghost', 'unknown_tool'],
    ]);
    expect(result.content).toBe('Sorry, let me retry.');
  });

  it('survives the socket closing mid-call: no crash, the session ends, nothing left running', async () => {
    http = await startTestServer();
    let arrived = false;
    http.route('/slow', (_req, res) => {
      arrived = true;
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 100);
    });
    rig = await realtimeRig({
      tools: [endpoint(http.origin, 'lookup', 'get', '/slow')],
      steps: [{ tool_calls: [{ name: 'lookup', args: { city: 'Quito' } }] }, { text: 'never' }],
    });
    const turn = rig.attachment.session.send('Look up Quito');
    await until(() => arrived, 'the request');
    rig.server.dropClient();
    await turn.result.catch(() => undefined);
    await until(() => rig!.attachment.closed, 'closed');
    expect(rig.attachment.session.ended).toBe(true);
    expect(() => rig!.attachment.session.send('again')).toThrow(/ended/);
  });

  it('leaves no sockets or timers behind after calls dropped mid-call', async () => {
    const count = (kind: string): number =>
      process.getActiveResourcesInfo().filter((r) => r === kind).length;
    const baseline = { sockets: count('TCPSocketWrap'), timers: count('Timeout') };
    const server = await startTestServer();
    server.route('/slow', (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 50);
    });
    for (let i = 0; i < 5; i++) {
      const r = await realtimeRig({
        tools: [endpoint(server.origin, 'lookup', 'get', '/slow')],
        steps: [{ tool_calls: [{ name: 'lookup', args: { city: 'Quito' } }] }, { text: 'never' }],
      });
      const turn = r.attachment.session.send('Look up Quito');
      await until(() => server.requests.length > i, 'the request');
      r.server.dropClient();
      await turn.result.catch(() => undefined);
      await r.close();
    }
    await server.close();
    await until(() => count('TCPSocketWrap') <= baseline.sockets, 'sockets closed');
    await until(() => count('Timeout') <= baseline.timers, 'timers cleared');
  });

  it('reports server error events to the host, ignores malformed events, and fails a refused response cleanly', async () => {
    rig = await realtimeRig({ tools: [note], steps: [{ text: 'Hello.' }] });
    rig.server.emit({
      type: 'error',
      error: { type: 'invalid_request_error', code: 'rate_limit_exceeded', message: 'slow down' },
    });
    rig.server.emit({ type: 'response.done', response: 'garbage' });
    rig.server.emit({ type: 'response.function_call_arguments.done', response_id: 42 });
    await until(() => rig!.serverErrors.length > 0, 'server error');
    expect(rig.serverErrors[0]).toMatchObject({
      code: 'rate_limit_exceeded',
      message: 'slow down',
    });
    const result = await rig.attachment.session.run('hi');
    expect(result.content).toBe('Hello.');
  });

  it('a model failure ends the turn with a model error, and the next turn works', async () => {
    rig = await realtimeRig({
      tools: [note],
      steps: [{ error: 'upstream exploded' }, { text: 'Back.' }],
    });
    await expect(rig.attachment.session.run('hi')).rejects.toThrow(/upstream exploded/);
    expect(rig.events.some((e) => e.type === 'model-error')).toBe(true);
    expect((await rig.attachment.session.run('again')).content).toBe('Back.');
  });

  it('hands off to another agent with session.update of its tools and prompt', async () => {
    const transfer = {
      type: 'action',
      tool: {
        type: 'function',
        function: { name: 'to_billing', parameters: { type: 'object', properties: {} } },
      },
      options: { handoff: 'billing' },
    };
    rig = await realtimeRig({
      tools: [transfer, note],
      steps: [{ tool_calls: [{ name: 'to_billing', args: {} }] }, { text: 'Billing here.' }],
      session: {
        agents: {
          front: { prompt: 'Front desk.', tools: ['to_billing'] },
          billing: { prompt: 'Billing desk.', tools: ['note'] },
        },
        actions: { to_billing: () => ({ ok: true }) },
      },
    });
    await rig.attachment.session.run('billing please');
    expect(rig.server.config.instructions).toBe('Billing desk.');
    expect(rig.server.config.tools.map((t) => t.name)).toEqual(['note']);
  });
});
