/**
 * `switchboard repl` with an OpenAI-compatible model, as a user runs it: OPENAI_BASE_URL points
 * at a local fake server on 127.0.0.1 that streams Chat Completions chunks.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess } from './build.js';

type Reply = { text?: string; toolCall?: { name: string; arguments: string } };
const replies: Reply[] = [];
const requests: Record<string, unknown>[] = [];
let server: Server;
let baseURL = '';

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  const body = {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'fake',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      requests.push(JSON.parse(raw) as Record<string, unknown>);
      const reply = replies.shift() ?? { text: 'out of script' };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (reply.toolCall !== undefined) {
        res.write(
          chunk({
            role: 'assistant',
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: reply.toolCall.name, arguments: '' },
              },
            ],
          }),
        );
        res.write(
          chunk({ tool_calls: [{ index: 0, function: { arguments: reply.toolCall.arguments } }] }),
        );
        res.write(chunk({}, 'tool_calls'));
      } else {
        res.write(chunk({ role: 'assistant', content: reply.text ?? '' }));
        res.write(chunk({}, 'stop'));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function repl(
  args: readonly string[],
  input: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return cliInProcess(['repl', ...args], {
    input,
    env: { OPENAI_BASE_URL: baseURL, OPENAI_MODEL: 'fake-model' },
  });
}

describe('repl with an OpenAI-compatible model', () => {
  it('uses OPENAI_BASE_URL and OPENAI_MODEL, runs native tool calls', async () => {
    requests.length = 0;
    replies.push(
      { toolCall: { name: 'set_language', arguments: '{"language":"es-US"}' } },
      { text: '¡Claro!' },
    );
    const r = await repl(
      ['fixtures/tools/language.json', '--languages', 'en-US,es-US'],
      'Hablemos en español\n/quit\n',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('model: openai:fake-model');
    expect(r.stdout).toContain('say     “Claro, continuemos en español.”');
    expect(r.stdout).toContain('¡Claro!');
    expect(requests[0]?.['model']).toBe('fake-model');
    expect(Array.isArray(requests[0]?.['tools'])).toBe(true);
  });

  it('--text-markers: no native tools are sent; markers in the text become calls and are never spoken', async () => {
    requests.length = 0;
    replies.push(
      { text: 'Un momento. <tool>{"name":"set_language","input":{"language":"es-US"}}</tool>' },
      { text: 'Listo.' },
    );
    const r = await repl(
      ['fixtures/tools/language.json', '--text-markers'],
      'Español por favor\n/quit\n',
    );
    expect(r.status).toBe(0);
    expect(requests[0]?.['tools']).toBeUndefined();
    expect(r.stdout).toContain('calls set_language');
    expect(r.stdout).not.toContain('<tool>');
    expect(r.stdout).toContain('Listo.');
  });

  it('--json-tool-calls: each reply is one JSON object, a call or the answer; no native tools are sent', async () => {
    requests.length = 0;
    replies.push(
      { text: '{"tool": "set_language", "input": {"language": "es-US"}}' },
      { text: '{"tool": "none", "response": "Listo."}' },
    );
    const r = await repl(
      ['fixtures/tools/language.json', '--json-tool-calls'],
      'Español por favor\n/quit\n',
    );
    expect(r.status).toBe(0);
    expect(requests[0]?.['tools']).toBeUndefined();
    // The contract and the tool list travel in the system message.
    const messages = requests[0]?.['messages'] as { role: string; content: string }[];
    expect(messages[0]?.role).toBe('system');
    expect(messages[0]?.content).toContain('"set_language"');
    expect(r.stdout).toContain('calls set_language');
    expect(r.stdout).toContain('Listo.');
    expect(r.stdout).not.toContain('"tool"');
  });

  it('--text-markers with --json-tool-calls is refused, naming both; with --model manual either is a warning', async () => {
    const both = await repl(
      ['fixtures/tools/language.json', '--text-markers', '--json-tool-calls'],
      '/quit\n',
    );
    expect(both.status).toBe(2);
    expect(both.stderr).toContain(
      '--text-markers and --json-tool-calls are two ways for a model to call tools: give one',
    );
    const manual = await repl(
      ['fixtures/tools/language.json', '--model', 'manual', '--json-tool-calls'],
      '/quit\n',
    );
    expect(manual.status).toBe(0);
    expect(manual.stderr).toContain(
      'warning: --json-tool-calls has no effect with --model manual (you call tools with /call)',
    );
  });
});
