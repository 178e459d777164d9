// CPU per createSession with a typical host's options (a tool set, a model, vars, language,
// maxToolRounds, speechAck, onEvent): 100,000 sessions after 20,000 of warm-up. Pass two builds'
// dist folders to compare them in one run, e.g. the option shape check's cost:
//   node bench/investigate/create-session-cost.mjs [--dists dist,../other/dist] [--runs 3]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { dists: { type: 'string', default: 'dist' }, runs: { type: 'string', default: '3' } },
});
const N = 100_000;
const builds = [];
for (const dist of values.dists.split(',')) {
  const url = (file) => pathToFileURL(resolve(dist, file)).href;
  const { createSession, loadTools } = await import(url('index.js'));
  const { ScriptedModel } = await import(url('testing.js'));
  const tools = await loadTools([
    {
      type: 'log',
      tool: {
        type: 'function',
        function: {
          name: 'note',
          description: 'n',
          parameters: { type: 'object', properties: { text: { type: 'string' } } },
        },
      },
    },
  ]);
  const model = new ScriptedModel([]);
  const onEvent = () => undefined;
  const make = (i) =>
    createSession({
      tools,
      model,
      onEvent,
      vars: { caller: `x${i}`, n: i },
      language: 'en-US',
      maxToolRounds: 4,
      speechAck: 'host',
    });
  for (let i = 0; i < 20_000; i++) make(i);
  builds.push({ dist, make });
}
// The builds alternate, run by run: the machine's load falls on each alike.
for (let run = 1; run <= Number(values.runs); run++)
  for (const { dist, make } of builds) {
    const start = process.cpuUsage();
    for (let i = 0; i < N; i++) make(i);
    const used = process.cpuUsage(start);
    console.log(`${dist}: ${((used.user + used.system) / N).toFixed(2)} µs per createSession`);
  }
