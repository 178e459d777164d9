/**
 * Command tools in a session (docs/handlers.md, "Command tools"): the same pipeline as every tool
 * (validation, defaults, static parameters), a `command` event and the trace's `commands` per run,
 * a child span per run (argv only when values are recorded), secrets scrubbed from all of them.
 */
import type { Tracer } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../../src/definition/load.js';
import { ScriptedModel } from '../../../src/models/scripted.js';
import { createSession } from '../../../src/session/create-session.js';
import type { SessionEvent, SessionOptions } from '../../../src/session/types.js';
import { SecretSet } from '../../../src/handlers/endpoint/secret-set.js';
import { scriptCommand } from './command-helpers.js';

const SECRET = 'sk-static-0123456789abcdef';
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer: Tracer = provider.getTracer('test');
afterEach(() => exporter.reset());

function secretSet(): SecretSet {
  const set = new SecretSet();
  set.add(SECRET);
  return set;
}

async function session(
  args: Record<string, unknown>,
  extra: Partial<SessionOptions> = {},
): Promise<{
  events: SessionEvent[];
  result: Awaited<ReturnType<ReturnType<typeof createSession>['run']>>;
}> {
  const tools = await loadTools([
    {
      type: 'command',
      command: { name: 'synapse', subcommand: ['memory', 'search'], flag_case: 'kebab-case' },
      tool: {
        type: 'function',
        function: {
          name: 'memory_search',
          parameters: {
            type: 'object',
            properties: { query: { type: 'string' }, maxResults: { type: 'integer', maximum: 20 } },
            required: ['query'],
            additionalProperties: false,
          },
        },
      },
      defaults: { maxResults: 5 },
      static_parameters: [{ name: 'apiKey', default: SECRET }],
    },
  ]);
  const events: SessionEvent[] = [];
  const s = createSession({
    tools,
    model: new ScriptedModel([{ tool_calls: [{ name: 'memory_search', args }] }, { text: 'done' }]),
    commands: { synapse: scriptCommand('echo-argv.mjs') },
    // The static parameter's value is a secret the host declares to this session.
    secrets: secretSet(),
    onEvent: (e) => events.push(e),
    ...extra,
  });
  const result = await s.run('find it');
  await s.close();
  return { events, result };
}

describe('command tools in a session', () => {
  it('runs the final arguments (defaults, static parameters) as argv and records the run', async () => {
    const { events, result } = await session({ query: 'dentist' });
    const trace = result.traces[0];
    expect(trace?.isError).toBe(false);
    expect(trace?.commands).toEqual([
      {
        command: 'synapse',
        argv: [
          'memory',
          'search',
          '--query=dentist',
          // Static parameters are applied before defaults, so come first.
          '--api-key=[redacted]',
          '--max-results=5',
        ],
      },
    ]);
    expect(events.find((e) => e.type === 'command')).toMatchObject({
      type: 'command',
      tool: 'memory_search',
      command: { command: 'synapse' },
    });
    // What the model saw: the program's JSON, its argv with the secret scrubbed.
    expect(JSON.stringify(trace?.output)).not.toContain(SECRET);
    expect(trace?.output).toMatchObject({
      argv: ['memory', 'search', '--query=dentist', '--api-key=[redacted]', '--max-results=5'],
    });
  });

  it('validates like any tool: a bad argument never runs a program', async () => {
    const { events, result } = await session({ query: 'x', maxResults: 99 });
    expect(result.traces[0]?.errorCode).toBe('invalid_arguments');
    expect(events.some((e) => e.type === 'command')).toBe(false);
  });

  it('traces each run as a child span, argv only when values are recorded', async () => {
    await session({ query: 'dentist' }, { tracing: { tracer } });
    const span = exporter.getFinishedSpans().find((s) => s.name === 'command synapse');
    expect(span?.attributes['process.executable.name']).toBe('synapse');
    expect(span?.attributes['process.exit.code']).toBe(0);
    expect(span?.attributes['process.command_args']).toBeUndefined();
    const parent = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool memory_search');
    expect(span?.parentSpanContext?.spanId).toBe(parent?.spanContext().spanId);
    exporter.reset();
    await session({ query: 'dentist' }, { tracing: { tracer, recordValues: true } });
    const recorded = exporter.getFinishedSpans().find((s) => s.name === 'command synapse');
    const args = String(recorded?.attributes['process.command_args']);
    expect(args).toContain('--query=dentist');
    expect(args).not.toContain(SECRET);
  });
});
