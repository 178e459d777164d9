/**
 * A Realtime server that breaks the protocol (a repeated response id, a replayed call id): the
 * call neither wedges nor runs an action twice, and the host hears about it. Driven through the
 * loopback server, whose `emit` plays the broken server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { realtimeRig, until, type RealtimeRig } from './helpers.js';

const note = {
  type: 'log',
  tool: {
    type: 'function',
    function: {
      name: 'note',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
  },
};
const charge = {
  type: 'action',
  tool: {
    type: 'function',
    function: {
      name: 'charge',
      parameters: {
        type: 'object',
        properties: { cents: { type: 'integer' } },
        required: ['cents'],
      },
    },
  },
};

function call(responseId: string, callId: string, name: string, args: object) {
  return {
    type: 'response.output_item.done',
    response_id: responseId,
    output_index: 0,
    item: {
      id: `item_${callId}`,
      type: 'function_call',
      status: 'completed',
      call_id: callId,
      name,
      arguments: JSON.stringify(args),
    },
  };
}
function created(id: string) {
  return {
    type: 'response.created',
    response: { id, object: 'realtime.response', status: 'in_progress', metadata: null },
  };
}
function done(id: string, output: object[] = []) {
  return {
    type: 'response.done',
    response: { id, object: 'realtime.response', status: 'completed', output },
  };
}

let rig: RealtimeRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('a repeated response.created id', () => {
  it('is reported and ignored: the turn ends and the caller’s next turn runs its calls', async () => {
    rig = await realtimeRig({
      tools: [note],
      steps: [
        { text: 'Noted.' },
        { tool_calls: [{ name: 'note', args: { text: 'second' }, id: 'n2' }] },
        { text: 'Noted again.' },
      ],
    });
    const server = rig.server;
    server.emit(created('resp_dup'));
    server.emit(call('resp_dup', 'n1', 'note', { text: 'first' }));
    server.emit(created('resp_dup'));
    server.emit(done('resp_dup', [call('resp_dup', 'n1', 'note', { text: 'first' }).item]));
    await until(() => rig!.events.filter((e) => e.type === 'turn-end').length === 1, 'turn 1');
    expect(rig.serverErrors.map((e) => e.code)).toEqual(['duplicate_response']);
    expect(rig.serverErrors[0]!.message).toContain('resp_dup');

    server.callerSays('Note it again.');
    await until(() => rig!.events.filter((e) => e.type === 'turn-end').length === 2, 'turn 2');
    const logs = rig.events.filter((e) => e.type === 'log').map((e) => e.args);
    expect(logs).toEqual([{ text: 'first' }, { text: 'second' }]);
    rig.brain.assertComplete();
  });

  it('after its response is done, the replay starts no turn and the next typed turn works', async () => {
    rig = await realtimeRig({ tools: [note], steps: [{ text: 'Hello.' }] });
    rig.server.emit(created('resp_a'));
    rig.server.emit(done('resp_a'));
    await until(() => rig!.events.some((e) => e.type === 'turn-end'), 'the first turn');
    rig.server.emit(created('resp_a'));
    const result = await rig.attachment.session.run('hi');
    expect(result.content).toBe('Hello.');
    expect(rig.events.filter((e) => e.type === 'turn-start')).toHaveLength(2);
    expect(rig.serverErrors.map((e) => e.code)).toEqual(['duplicate_response']);
  });
});

describe('a call id replayed in a later response', () => {
  it('runs the action once: the replay is dropped and reported', async () => {
    const charges: unknown[] = [];
    rig = await realtimeRig({
      tools: [charge],
      steps: [
        { tool_calls: [{ name: 'charge', args: { cents: 500 }, id: 'call_pay' }] },
        { text: 'Charged.' },
        { tool_calls: [{ name: 'charge', args: { cents: 500 }, id: 'call_pay' }] },
        { text: 'Charged again.' },
      ],
      session: { actions: { charge: (args) => (charges.push(args), { ok: true }) } },
    });
    expect((await rig.attachment.session.run('Pay 5 dollars.')).content).toBe('Charged.');
    const second = await rig.attachment.session.run('Did it go through?');
    expect(charges).toEqual([{ cents: 500 }]);
    expect(second.traces).toEqual([]);
    expect(rig.serverErrors.map((e) => e.code)).toEqual(['duplicate_call_id']);
    expect(rig.serverErrors[0]!.message).toContain('call_pay');
  });

  it('a replay inside one response (delta done, item done, response.done) is one call, not a replay', async () => {
    rig = await realtimeRig({ tools: [note], steps: [{ text: 'ok' }] });
    rig.server.emit(created('resp_b'));
    rig.server.emit(call('resp_b', 'n1', 'note', { text: 'once' }));
    rig.server.emit(call('resp_b', 'n1', 'note', { text: 'once' }));
    rig.server.emit(done('resp_b', [call('resp_b', 'n1', 'note', { text: 'once' }).item]));
    await until(() => rig!.events.some((e) => e.type === 'turn-end'), 'the turn');
    expect(rig.events.filter((e) => e.type === 'log')).toHaveLength(1);
    expect(rig.serverErrors).toEqual([]);
  });
});
