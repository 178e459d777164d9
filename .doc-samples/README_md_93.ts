import { ScriptedModel } from 'switchboard/testing';
const model = new ScriptedModel([{ tool_calls: [{ name: 'hangup', args: {} }] }, { text: 'Bye!' }]);

export {};
