/**
 * docs/adapters.md's `ai` sample, as printed: its services (origins included) and its tools
 * file make an adapter; before, the sample's service had auth without origins and threw
 * `origins_required` at creation.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAiTools } from '../../src/adapters/ai.js';
import { loadTools } from '../../src/definition/load.js';

const page = readFileSync(new URL('../../docs/adapters.md', import.meta.url), 'utf8');
const sample = /## Vercel `ai`[\s\S]*?```ts\n([\s\S]*?)```/.exec(page)?.[1] ?? '';

describe("docs/adapters.md's ai sample", () => {
  it('creates its adapter with the services it prints', async () => {
    const file = /loadTools\('([^']+)'\)/.exec(sample)?.[1];
    const origins = [
      ...(/origins: \[([^\]]*)\]/.exec(sample)?.[1] ?? '').matchAll(/'([^']+)'/g),
    ].map((m) => m[1] ?? '');
    expect(file).toBe('fixtures/tools/clinic.json');
    expect(sample).toContain("auth: { type: 'bearer', token: process.env.CLINIC_TOKEN! }");
    const sb = createAiTools({
      tools: await loadTools(file ?? ''),
      vars: { hospital: 'Lincoln' },
      services: { clinic: { auth: { type: 'bearer', token: 't' }, origins } },
    });
    expect(Object.keys(sb.tools)).toContain('book_appointment');
    await sb.close();
  });
});
