/**
 * The resolved, fully-defaulted internal form of a tool definition. zod turns raw input (either
 * spelling, optional fields) into this once at load; the engine never re-checks optional fields.
 */
import type { DefinitionIssue } from '../errors.js';
import type { CompiledDefaults } from '../transform/types.js';
import type { WorkflowTask } from './workflow/types.js';
import type { ArgumentValidator } from './validator-types.js';

/** How a tool executes. */
export type ToolType = 'action' | 'endpoint' | 'context' | 'log' | 'command';
/** HTTP methods, normalised to lower case. */
export type HttpMethod = 'get' | 'post' | 'put' | 'delete';
/** Where endpoint arguments go. */
export type ArgumentLocation = 'body' | 'form' | 'path' | 'query';

/** A JSON Schema object, passed to the model as-is. */
export type JsonSchema = Record<string, unknown>;

/** The OpenAI function spec, as written in the definition. */
export interface FunctionSpec {
  readonly name: string;
  readonly description?: string;
  readonly parameters: JsonSchema;
  readonly strict?: boolean;
}

/** The `tool` field: the OpenAI function tool, passed to the model as-is. */
export interface FunctionTool {
  readonly type: 'function';
  readonly function: FunctionSpec;
}

/** A resolved `endpoint`. */
export interface EndpointConfig {
  readonly url: string;
  readonly method: HttpMethod;
  /** Default `body` for post/put, `query` for get/delete. */
  readonly argumentLocation: ArgumentLocation;
  /** Seconds, 1..120, default 20. */
  readonly timeoutSecs: number;
  /** Names of `{placeholders}` in the URL path, in order. */
  readonly pathParams: readonly string[];
}

/** How a command tool spells a parameter name as a flag (docs/handlers.md, "Command"). */
export type FlagCase = 'as_written' | 'snake_case' | 'kebab-case';

/** A resolved `command`: the host-registered command a tool runs and how its arguments become argv. */
export interface CommandSpec {
  /** The name the host registered under `commands` (never an executable path). */
  readonly name: string;
  /** Words always passed first, after the host's own `args` (e.g. `["memory", "search"]`). */
  readonly subcommand: readonly string[];
  /** Parameters passed as positional arguments, in this order, after a `--`. Default []. */
  readonly positional: readonly string[];
  /** Default `as_written`. */
  readonly flagCase: FlagCase;
  /** Seconds, 1..120, default 20. */
  readonly timeoutSecs: number;
}

export type { StaticParameter, StaticParameterType } from '../transform/types.js';
import type { StaticParameter } from '../transform/types.js';

/** `options.save`: copy part of a result (JMESPath) into a session variable. */
export interface SaveRule {
  readonly from: string;
  readonly to: string;
}

/** Resolved `options`. */
export interface ToolOptions {
  /** Default false. */
  readonly propagateToolResult: boolean;
  /** Default []. */
  readonly save: readonly SaveRule[];
  /** Bridge phrases per language tag (`"*"` for any), spoken while a slow tool runs. Default {}. */
  readonly bridgePhrases: Readonly<Record<string, readonly string[]>>;
  /** Agent the session hands over to after a successful call (beyond Syllable). Default none. */
  readonly handoff?: string;
  /** `options.speech` resolved (docs/voice.md). */
  readonly speech: SpeechPolicy;
  /** `options.background`: the model gets `{"status":"started"}` at once. Default false. */
  readonly background: boolean;
  /** `options.side_effects`. Default from the type and method (see `defaultSideEffectClass`). */
  readonly sideEffects: SideEffectClass;
}

/** What running a tool does to the world (docs/voice.md). */
export type SideEffectClass = 'none' | 'idempotent' | 'unsafe';

/** Error classes `options.speech.on_error` can speak for; `*` is any other error. */
export type SpokenErrorClass =
  'timeout' | 'http_4xx' | 'http_5xx' | 'network' | 'invalid_arguments' | '*';

/** `options.speech.before`: a phrase spoken when the call starts (or once it is slow). */
export interface PreToolSpeech {
  /** Default `always` when `before` is given. */
  readonly mode: 'always' | 'if_slow' | 'never';
  /** Delay of `if_slow` in ms. Default 1000. */
  readonly delayMs: number;
  /** Phrases per language tag (`"*"` for any); rotated per call. */
  readonly phrases: ReadonlyMap<string, readonly string[]>;
}

/** Resolved `options.speech`. */
export interface SpeechPolicy {
  /** Dispatch only after earlier speech of the turn was acknowledged. Default true for actions. */
  readonly afterSpeech: boolean;
  /** Cap on that wait, ms. Default 10 000. */
  readonly maxWaitMs: number;
  /** False: `interrupt()` is refused while such a call (or its wait) is pending. Default true. */
  readonly interruptible: boolean;
  readonly before?: PreToolSpeech;
  /** Spoken error phrases: per error class, per language tag (mustache over args and vars). */
  readonly onError: ReadonlyMap<SpokenErrorClass, ReadonlyMap<string, string>>;
}

/** The voice fields of `options`, resolved together. */
export interface VoicePolicy {
  readonly speech: SpeechPolicy;
  readonly background: boolean;
  readonly sideEffects: SideEffectClass;
}

/** One tool, resolved and compiled. */
export interface ToolDefinition {
  /** `tool.function.name`. */
  readonly name: string;
  readonly type: ToolType;
  readonly tool: FunctionTool;
  /** Present iff `type` is `endpoint`. */
  readonly endpoint?: EndpointConfig;
  /** Present iff `type` is `command`. */
  readonly command?: CommandSpec;
  readonly defaults: CompiledDefaults;
  /** The raw `defaults` object as written (for display and export). */
  readonly rawDefaults: Readonly<Record<string, unknown>>;
  readonly staticParameters: readonly StaticParameter[];
  /** True when the definition has a `result` field (even `null`). */
  readonly hasResult: boolean;
  readonly result?: unknown;
  readonly options: ToolOptions;
  readonly service?: string;
  /**
   * Symphony tool config: `timeout` (ms, per attempt) and `retryCount`/`retry_count` as written;
   * absent when the definition sets neither. See docs/agent-format.md.
   */
  readonly callPolicy?: { readonly timeoutMs?: number; readonly retryCount: number };
  /** The function's JSON Schema, compiled once. */
  readonly validator: ArgumentValidator;
  /**
   * `context.task` compiled (Step Workflows, expression and event tasks; docs/workflows.md).
   * Default []. A definition with tasks is not shown to the model itself: its tasks' tools are.
   */
  readonly tasks: readonly WorkflowTask[];
  /**
   * Where it came from: file, index in the tools array and, when that is not `tools[index]`, the
   * JSON path of the definition proper (`tools[0].definition` in a Syllable API tool object).
   */
  readonly source: { readonly file?: string; readonly index: number; readonly path?: string };
}

/** A loaded tools file: tools by name (a `Map`, never a plain object) and the warnings found. */
export interface ToolSet {
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  readonly warnings: readonly DefinitionIssue[];
  /** The files the tools came from (empty for inline values). */
  readonly files: readonly string[];
}
