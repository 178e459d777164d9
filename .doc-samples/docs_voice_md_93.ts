import { createSession, type Model, type ToolSet } from 'switchboard';
declare const tools: ToolSet, model: Model; // yours: loadTools(…), openaiModel(…)
declare const ui: { showWaiting(tool: string, ids: readonly string[], maxWaitMs: number): void };
declare const player: { onEnded(listener: (speechId: string) => void): void }; // your audio out

const waiting = new Map<string, readonly string[]>(); // callId → speech ids it waits for
const session = createSession({
  tools,
  model,
  speechAck: 'host',
  onEvent: (e) => {
    if (e.type === 'speech-wait') {
      waiting.set(e.callId, e.speechIds);
      // e.g. do not cut the audio of e.speechIds short; show "hanging up after the goodbye"
      ui.showWaiting(e.tool, e.speechIds, e.maxWaitMs);
    }
    if (e.type === 'tool-result' || e.type === 'tool-error') waiting.delete(e.callId);
  },
});
player.onEnded((speechId) => session.spoken(speechId)); // releases the waiting call

export {};
