import { voice } from '@livekit/agents';
import { createLiveKitTools } from 'switchboard/livekit';

// In your entry's session set-up, one per LiveKit session:
const sb = createLiveKitTools({ tools, languages: ['en-US', 'es-US'], services });
const session = new voice.AgentSession({ stt, llm, tts });
await session.start({ agent: new voice.Agent({ instructions: '…', tools: sb.tools }), room });
ctx.addShutdownCallback(() => sb.close());

export {};
