// A Synapse-style memory CLI for tests: `memory search|add|forget`, notes kept in
// $SYNAPSE_HOME/notes.json, JSON on stdout, errors on stderr with a non-zero exit.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const home = process.env.SYNAPSE_HOME;
if (home === undefined) {
  process.stderr.write('synapse: SYNAPSE_HOME is not set\n');
  process.exit(78);
}
const store = join(home, 'notes.json');
const notes = existsSync(store) ? JSON.parse(readFileSync(store, 'utf8')) : [];
const [group, verb, ...rest] = process.argv.slice(2);
const dash = rest.indexOf('--');
const flags = dash === -1 ? rest : rest.slice(0, dash);
const positionals = dash === -1 ? [] : rest.slice(dash + 1);
const flag = (name) =>
  flags.filter((f) => f.startsWith(`--${name}=`)).map((f) => f.slice(name.length + 3));
const unknown = flags.find((f) => !/^--(query|max-results|tags|include-archived)(=|$)/.test(f));
if (group !== 'memory' || unknown !== undefined) {
  process.stderr.write(`synapse: unknown ${unknown ?? `command ${group} ${verb}`}\n`);
  process.exit(64);
}
if (verb === 'search') {
  const query = flag('query')[0] ?? '';
  const max = Number(flag('max-results')[0] ?? 5);
  const found = notes.filter((n) => n.text.toLowerCase().includes(query.toLowerCase()));
  process.stdout.write(JSON.stringify({ notes: found.slice(0, max) }));
} else if (verb === 'add') {
  const note = { id: `n${notes.length + 1}`, text: positionals.join(' '), tags: flag('tags') };
  writeFileSync(store, JSON.stringify([...notes, note]));
  process.stdout.write(`saved ${note.id}\n`);
} else if (verb === 'forget') {
  const id = positionals[0];
  if (!notes.some((n) => n.id === id)) {
    process.stderr.write(`error: no note ${id}\n`);
    process.exit(2);
  }
  writeFileSync(store, JSON.stringify(notes.filter((n) => n.id !== id)));
  process.stdout.write(JSON.stringify({ forgotten: id }));
} else {
  process.stderr.write(`synapse: unknown command memory ${verb}\n`);
  process.exit(64);
}
