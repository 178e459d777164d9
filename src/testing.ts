/**
 * switchboard/testing — test doubles that are part of the product (the scripted model).
 */
export {
  ScriptedModel,
  type ScriptedStep,
  type ScriptedToolCall,
  type ScriptedCall,
  type ScriptedModelOptions,
} from './models/scripted.js';
export {
  startRealtimeLoopback,
  type RealtimeLoopback,
  type RealtimeLoopbackOptions,
} from './realtime/loopback-server.js';
