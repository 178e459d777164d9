import { createSession, resumeSession } from 'switchboard';
import { RedisSessionStore } from 'switchboard/redis';
const store = await RedisSessionStore.connect({ url: process.env.REDIS_URL });
// id: the call's id; options: your createSession options
const session = (await resumeSession(id, { ...options, store })) ?? createSession({ ...options, store, id });

export {};
