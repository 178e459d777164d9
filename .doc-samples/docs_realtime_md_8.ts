import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { actionResult, loadTools, mergeToolSets } from 'switchboard';
import { attachRealtime } from 'switchboard/realtime';

// The clinic's endpoints and a hangup action (as in fixtures/tools/clinic.json and telephony.json).
const files = ['tools/clinic.json', 'tools/telephony.json'];
const tools = mergeToolSets(await Promise.all(files.map((f) => loadTools(f))), 'tools');

// Twilio Media Streams style host: one Realtime socket per phone call.
export async function onCall(twilio: TwilioStream) {
  const openai = new OpenAI();
  const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime' }, openai);
  const call = attachRealtime({
    connection: rt,
    credentials: [openai.apiKey], // scrubbed from errors the server echoes (see Decisions)
    session: {
      tools,
      prompt: 'You are the clinic receptionist. Today is {{vars.session.date}}.',
      services: {
        clinic: {
          auth: { type: 'bearer', token: process.env.CLINIC_TOKEN! },
          origins: ['https://api.clinic.test'],
        },
      },
      actions: {
        hangup: async () => {
          await twilio.hangup();
          return actionResult({ endSession: true });
        },
      },
      store, // optional: the state after every turn, as with text sessions
    },
  });
  await call.ready;                        // socket open, tools and prompt sent
  // Audio plumbing is the host's and out of scope here: forward Twilio's media frames with
  // rt.send({ type: 'input_audio_buffer.append', audio }) and the model's
  // response.output_audio.delta frames back to Twilio.
  twilio.on('stop', () => call.close());
}

export {};
