import { createAiTools } from 'switchboard/ai';                 // Vercel ai: generateText/streamText
import { createAgentsTools } from 'switchboard/openai-agents';  // @openai/agents: Agent, RealtimeAgent
import { createLiveKitTools } from 'switchboard/livekit';       // LiveKit voice.Agent (says → session.say)

import { generateText, stepCountIs } from 'ai';

// tools, services: as for createSession; model, prompt: yours
const sb = createAiTools({ tools, services, vars: { hospital: 'Lincoln' } });
await generateText({ model, tools: sb.tools, stopWhen: stepCountIs(4), prompt });

export {};
