import { ScriptedModel } from 'switchboard/testing';
const model = new ScriptedModel(
  [
    { tool_calls: [{ name: 'book', args: { city: 'Bronx' } }] },
    { tool_calls: [{ name: 'book', args: '{"city":"Bronx",}' }] }, // raw string: malformed JSON
    { text: ['You are ', 'booked.'], delayMs: 20 }, // chunks, with delays
  ],
  { record: true }, // keep a copy of every request in `calls`
);
// … run the session …
model.assertComplete(); // throws if any step was never used
model.calls; // every request seen: { messages, tools, step } (only with record: true)
model.callCount; // calls so far (always counted); model.overCalls: calls beyond the script

export {};
