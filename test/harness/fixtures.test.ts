import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFixture } from '../../src/harness/run-fixture.js';
import { discoverFixtures, runFixtures } from '../../src/harness/run-fixtures.js';
import { DefinitionError } from '../../src/errors.js';
import { loadFixture } from '../../src/harness/load-fixture.js';
import { resultProblemLines } from '../../src/harness/reporters/format-failure.js';

const passing = readdirSync('fixtures/conversations').filter((f) => /\.(ya?ml|json)$/.test(f));

describe('fixtures/conversations', () => {
  it('has at least 15 fixtures', () => {
    expect(passing.length).toBeGreaterThanOrEqual(15);
  });
  for (const file of passing) {
    it(`passes: ${file}`, async () => {
      const result = await runFixture(join('fixtures/conversations', file));
      expect(resultProblemLines(result)).toEqual([]);
      expect(result.status).toBe('passed');
    });
  }
});

describe('fixtures/failing fail for the right reason', () => {
  const cases: [string, string, RegExp][] = [
    ['wrong-argument.yaml', 'expectation', /tool_calls\[0\]\.args\.city: different value/],
    ['unused-step.yaml', 'unused_steps', /1 scripted model step\(s\) of turn 1 never used/],
    ['model-overcalled.yaml', 'model_overcalled', /called 2 time\(s\) but turn 1 scripts 1 step/],
    [
      'undeclared-request.yaml',
      'undeclared_request',
      /undeclared request GET https:\/\/api\.weather\.test\/v1\/forecast\?city=Rome/,
    ],
    [
      'unused-exchange.yaml',
      'unused_exchange',
      /http\[0\] GET https:\/\/api\.example\.test\/never was never requested/,
    ],
    [
      'undeclared-command.yaml',
      'undeclared_command',
      /undeclared run of command synapse \["memory","search","--query=dentist address","--max-results=5"\]/,
    ],
    ['unused-command.yaml', 'unused_command', /declared run commands\.synapse\[0\] was never made/],
    ['hangup-before-farewell.yaml', 'expectation', /expect\.events\[1\]: no such event/],
    ['unmatched-speech-point.yaml', 'unmatched_speech_point', /no utterance contains "See you"/],
    // The turn ends on the over-called script; the call it did make is still reported.
    [
      'misspelt-tool.yaml',
      'expectation',
      /tool_calls\[0\]\.name: different value\n\s+expected: "hangup"\n\s+actual: +"hangpu"/,
    ],
  ];
  it('covers every file in the folder', () => {
    expect(readdirSync('fixtures/failing').sort()).toEqual(cases.map((c) => c[0]).sort());
  });
  for (const [file, kind, message] of cases) {
    it(`${file} fails with ${kind}`, async () => {
      const result = await runFixture(join('fixtures/failing', file));
      expect(result.status).toBe('failed');
      expect(result.failures.map((f) => f.kind)).toContain(kind);
      expect(resultProblemLines(result).join('\n')).toMatch(message);
    });
  }
});

describe('scripted speech points', () => {
  it('match an utterance streamed in several deltas, and only the unmatched one fails', async () => {
    const result = await runFixture('fixtures/failing/unmatched-speech-point.yaml');
    expect(result.failures.map((f) => f.kind)).toEqual(['unmatched_speech_point']);
    expect(resultProblemLines(result).join('\n')).not.toMatch(/Goodbye/);
  });
});

describe('session.system_values', () => {
  // What an imported Vapi tool sends for {{customer.number}}: the host's systemValues.source.
  const fixture = (session: Record<string, unknown>) => ({
    name: 'caller number',
    tools: [
      {
        type: 'endpoint',
        tool: {
          type: 'function',
          function: { name: 'book', parameters: { type: 'object', properties: {} } },
        },
        endpoint: { url: 'https://api.test/book', method: 'post' },
        static_parameters: [
          { name: 'caller', type: 'string', default: '{{vars.session.source}}' },
          { name: 'called', type: 'string', default: '{{vars.session.target}}' },
        ],
      },
    ],
    session,
    http: [{ request: { method: 'POST', url: 'https://api.test/book' }, response: { json: {} } }],
    turns: [
      {
        user: 'book',
        model: [{ tool_calls: [{ name: 'book', args: {} }] }, { text: 'ok' }],
        expect: { requests: [{ json: { caller: '+15550001111', called: '+15550002222' } }] },
      },
    ],
  });

  it('sets the caller and called numbers a tool reads as vars.session.source/target', async () => {
    const session = { system_values: { source: '+15550001111', target: '+15550002222' } };
    const result = await runFixture(fixture(session), { file: 'inline.yaml' });
    expect(resultProblemLines(result)).toEqual([]);
    expect(result.status).toBe('passed');
  });

  it('a misspelt key in it is named with its path', async () => {
    const result = await runFixture(fixture({ system_values: { sorce: '+1' } }), {
      file: 'inline.yaml',
    });
    expect(result.status).toBe('error');
    expect(result.issues.map((i) => i.path)).toContain('session.system_values');
  });
});

describe('malformed fixtures', () => {
  it('names the file, the JSON path and the reason of every problem', async () => {
    const err = await loadFixture('test/harness/data/malformed.yaml').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DefinitionError);
    const issues = (err as DefinitionError).issues.map((i) => `${i.file}: ${i.path}: ${i.message}`);
    expect(issues).toContain(
      'test/harness/data/malformed.yaml: turns[0].model[0].tool_calls[0].name: is required',
    );
    expect(issues.some((i) => i.includes('turns[0]: unknown key(s) "expct"'))).toBe(true);
  });

  it('a misspelt key names the nearest one and the keys allowed there', async () => {
    const issueOf = async (turn: Record<string, unknown>): Promise<string> => {
      const fixture = {
        name: 'x',
        tools: [],
        turns: [{ user: 'hi', model: [{ text: 'a' }], ...turn }],
      };
      const r = await runFixture(fixture, { file: 'inline.yaml' });
      return r.issues.map((i) => `${i.path}: ${i.message}`).join('\n');
    };
    expect(await issueOf({ expcet: {} })).toMatch(
      /^turns\[0\]: unknown key\(s\) "expcet" \(did you mean `expect`\?\); keys here: .*\bexpect\b/,
    );
    expect(await issueOf({ expect: { tool_cals: [] } })).toMatch(
      /^turns\[0\]\.expect: unknown key\(s\) "tool_cals" \(did you mean `tool_calls`\?\); keys here: tool_calls, /,
    );
  });

  it('reports an unusable fixture as status error, never a throw', async () => {
    const result = await runFixture({ name: 'x', tools: [], turns: [] }, { file: 'inline.yaml' });
    expect(result.status).toBe('error');
    expect(result.issues[0]?.path).toBe('turns');
  });

  it('rejects an invalid regex at load time', async () => {
    const err = await loadFixture({
      name: 'r',
      tools: [],
      turns: [{ user: 'hi', model: [{ text: 'a' }], expect: { reply: { regex: '(' } } }],
    }).catch((e: unknown) => e);
    expect((err as DefinitionError).issues[0]?.path).toBe('turns[0].expect.reply.regex');
  });

  it('says so when given a tools file instead of a fixture', async () => {
    const result = await runFixture('fixtures/tools/clinic.json');
    expect(result.status).toBe('error');
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]?.message).toContain('this is a tools file, not a conversation fixture');
  });

  it('reports a missing tools file with its path', async () => {
    const result = await runFixture({
      name: 'm',
      tools: 'nope/none.json',
      turns: [{ user: 'x', model: [{ text: 'y' }] }],
    });
    expect(result.status).toBe('error');
    expect(result.issues[0]?.message).toMatch(/cannot read tools file "nope\/none.json": ENOENT/);
    expect(result.issues[0]?.path).toBe('tools');
    expect(result.issues[0]?.file).toBe('<inline>');
  });

  it('names a missing file of a list of tools files by its index', async () => {
    const result = await runFixture({
      name: 'm',
      tools: ['fixtures/tools/clinic.json', 'nope/none.json'],
      turns: [{ user: 'x', model: [{ text: 'y' }] }],
    });
    expect(result.status).toBe('error');
    expect(result.issues.map((i) => [i.path, i.file])).toEqual([['tools[1]', '<inline>']]);
    expect(result.issues[0]?.message).toMatch(/cannot read tools file "nope\/none.json"/);
  });

  it('keeps __proto__ in expectations as data (no pollution)', async () => {
    const fixture = JSON.parse(
      '{"name":"p","tools":"fixtures/tools/telephony.json","turns":[{"user":"x","model":[{"tool_calls":[{"name":"log_call_reason","args":{"reason":"r","__proto__":{"polluted":1}}}]},{"text":"ok"}],"expect":{"tool_calls":[{"name":"log_call_reason","match":"partial","args":{"__proto__":{"polluted":1}}}]}}]}',
    ) as unknown;
    const result = await runFixture(fixture);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(result.status).not.toBe('error');
  });
});

describe('a model call that fails', () => {
  const fixture = (expect?: Record<string, unknown>) => ({
    name: 'outage',
    tools: 'fixtures/tools/clinic.json',
    turns: [{ user: 'hi', model: [{ error: 'provider down' }], ...(expect ? { expect } : {}) }],
  });
  it('fails the fixture unless the turn expects it', async () => {
    const result = await runFixture(fixture());
    expect(result.status).toBe('failed');
    expect(result.failures).toEqual([
      { kind: 'model_error', turn: 0, message: 'the model call failed: provider down' },
    ]);
  });
  it('passes when expect.model_error matches it', async () => {
    const result = await runFixture(fixture({ model_error: { regex: 'down' } }));
    expect(result.failures).toEqual([]);
    expect(result.status).toBe('passed');
  });
});

describe('runFixtures from code', () => {
  it('in a folder: runs fixtures, skips tools files and names starting with . or _, reports an unparsable file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixture-folder-'));
    try {
      const demo = [
        'name: hello',
        `tools: ${JSON.stringify(resolve('fixtures/tools/clinic.json'))}`,
        'turns:',
        '  - user: hi',
        '    model: [{ text: Hello }]',
        '    expect: { reply: Hello }',
      ].join('\n');
      writeFileSync(join(dir, 'demo.yaml'), demo);
      writeFileSync(join(dir, '_draft.yaml'), demo);
      writeFileSync(join(dir, '.hidden.yaml'), demo);
      writeFileSync(join(dir, 'tools.json'), readFileSync('fixtures/tools/clinic.json'));
      writeFileSync(join(dir, 'broken.yaml'), 'turns: [unclosed');
      const { files } = await discoverFixtures({ paths: [dir] });
      expect(files).toEqual([join(dir, 'broken.yaml'), join(dir, 'demo.yaml')]);
      const summary = await runFixtures({ paths: [dir] });
      expect(summary.results.map((r) => [r.file, r.status])).toEqual([
        [join(dir, 'broken.yaml'), 'error'],
        [join(dir, 'demo.yaml'), 'passed'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs { paths }, and says how to call it when given a bare list', async () => {
    const summary = await runFixtures({ paths: ['fixtures/conversations/demo.yaml'] });
    expect(summary.passed).toBe(1);
    const bare = ['fixtures/conversations/demo.yaml'] as unknown as { paths: string[] };
    await expect(runFixtures(bare)).rejects.toThrow(
      'runFixtures: expected { paths: [files or folders] }, got a list: write runFixtures({ paths: [...] })',
    );
  });
});
