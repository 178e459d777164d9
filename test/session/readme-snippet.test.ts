/**
 * Issue 44 items 2 and 8: README's "In your bot" snippet is correct against the files it loads —
 * its action names a tool they define, its service declares the origins createSession requires,
 * an unset token is named at creation, and its hang-up ends the session.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { actionResult } from '../../src/handlers/action-result.js';
import { mergeToolSets } from '../../src/harness/load-fixture.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionOptions } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const snippet = /## In your bot\s+```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

const listOf = (pattern: RegExp): string[] =>
  [...(pattern.exec(snippet)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');

describe("README's In your bot snippet", () => {
  const files = listOf(/const files = \[([^\]]*)\]/);
  const origins = listOf(/origins: \[([^\]]*)\]/);
  const actions = [...(/actions: \{\s*(\w+):/.exec(snippet)?.slice(1) ?? [])];

  const options = async (token: string | undefined): Promise<SessionOptions> => ({
    tools: mergeToolSets(await Promise.all(files.map((f) => loadTools(f))), 'tools'),
    model: new ScriptedModel([{ tool_calls: [{ name: actions[0] ?? '?' }] }, { text: 'Bye!' }]),
    vars: { 'vars.hospital': 'Queens Hospital' },
    languages: ['en-US', 'es-US'],
    services: { clinic: { auth: { type: 'bearer', token: token as string }, origins } },
    actions: Object.fromEntries(actions.map((a) => [a, () => actionResult({ endSession: true })])),
  });

  it('was found, with its files, origins and action', () => {
    expect(files).toEqual(['fixtures/tools/clinic.json', 'fixtures/tools/telephony.json']);
    expect(origins).toEqual(['https://api.clinic.test']);
    expect(actions).toEqual(['hangup']);
    expect(snippet).toContain('actionResult({ endSession: true })');
  });

  it('creates its session, and the hang-up ends it', async () => {
    const session = createSession(await options('tok-readme-1234'));
    await session.run('That is all, bye.');
    expect(session.ended).toBe(true);
  });

  it('with CLINIC_TOKEN unset, createSession names the token', async () => {
    const unset = await options(undefined);
    expect(() => createSession(unset)).toThrow(
      'services.clinic.auth.token: expected a non-empty string, got nothing (undefined)',
    );
  });
});

/**
 * docs/session.md opens with the same kind of snippet: before, it used actionResult without
 * importing it and registered `hangup` over a tools file that has no such tool (createSession
 * refused it).
 */
describe("docs/session.md's opening snippet", () => {
  const page = readFileSync(new URL('../../docs/session.md', import.meta.url), 'utf8');
  const code = /```ts\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
  const quoted = (pattern: RegExp): string[] =>
    [...(pattern.exec(code)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');

  it('imports what it calls, and its session starts with its files, origins and action', async () => {
    const imported = (/import \{([^}]*)\} from 'switchboard'/.exec(code)?.[1] ?? '')
      .split(',')
      .map((n) => n.trim());
    for (const used of ['actionResult', 'createSession', 'loadTools', 'openaiModel'])
      if (code.includes(`${used}(`)) expect(imported).toContain(used);
    const files = quoted(/const files = \[([^\]]*)\]/);
    const actions = [...(/actions: \{\s*(\w+):/.exec(code)?.slice(1) ?? [])];
    expect(actions).toEqual(['hangup']);
    const session = createSession({
      tools: mergeToolSets(await Promise.all(files.map((f) => loadTools(f))), 'tools'),
      model: new ScriptedModel([{ tool_calls: [{ name: 'hangup' }] }, { text: 'Bye!' }]),
      services: {
        clinic: { auth: { type: 'bearer', token: 't' }, origins: quoted(/origins: \[([^\]]*)\]/) },
      },
      actions: { hangup: () => actionResult({ endSession: true }) },
    });
    await session.run('Bye.');
    expect(session.ended).toBe(true);
  });
});
