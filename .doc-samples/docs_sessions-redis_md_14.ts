import { createSession, resumeSession } from 'switchboard';
import { RedisSessionStore } from 'switchboard/redis';

const store = await RedisSessionStore.connect({ url: process.env.REDIS_URL });
const options = { tools, model, actions, store, id: callId };
const session = (await resumeSession(callId, options)) ?? createSession(options);
const result = await session.run(userText); // takes the lease, runs, saves, releases
// at shutdown:
await store.close();

export {};
