import { readFileSync } from 'node:fs';
import { loadTools } from 'switchboard';
import { importTools, exportTools } from 'switchboard/import';
const text = readFileSync('agent.json', 'utf8');             // the platform's file
const { tools, warnings } = importTools(JSON.parse(text), { from: 'elevenlabs', file: 'agent.json' });
const set = await loadTools({ tools });                       // always loads: tested per example
const out = exportTools(set, { to: 'ultravox' });             // { tools: [...], warnings }

export {};
