/**
 * The OpenAI-compatible model `repl`, `studio` and `serve` talk to, from the environment
 * (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL`) and the command's own flags: the same
 * checks, so a bad base URL or a missing key reads the same from every command.
 */
import {
  baseUrlProblem,
  misnamedBaseUrlMessage,
  misnamedBaseUrlVariable,
} from '../../models/base-url.js';
import { openaiModel } from '../../models/openai.js';
import { withJsonToolCalls } from '../../models/json-tool-calls.js';
import { withTextMarkers } from '../../models/text-markers.js';
import type { Model } from '../../models/types.js';
import { UsageError, type CliIO } from '../io.js';

/** The model id when neither a flag nor `OPENAI_MODEL` names one. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

/** Options of {@link remoteModel}. */
export interface RemoteModelOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** What to say when there is neither a key nor a base URL. */
  readonly missing: string;
  /** A `--base-url` flag (wins over `OPENAI_BASE_URL`). */
  readonly baseUrl?: string | undefined;
  /** A `--model-name` flag (wins over `OPENAI_MODEL`). */
  readonly modelName?: string | undefined;
  readonly toolCalls: ToolCallTransport;
  /** Where a warning line goes (stderr, as `warning: …`). */
  readonly warn?: (line: string) => void;
}

/**
 * How the model calls tools: natively, through text markers (`--text-markers`) or as JSON
 * replies (`--json-tool-calls`).
 */
export type ToolCallTransport = 'native' | 'markers' | 'json';

/** The transport the two flags choose; both at once is a usage error naming both. */
export function toolCallTransport(values: {
  readonly 'text-markers'?: boolean | undefined;
  readonly 'json-tool-calls'?: boolean | undefined;
}): ToolCallTransport {
  const markers = values['text-markers'] === true;
  const json = values['json-tool-calls'] === true;
  if (markers && json) {
    throw new UsageError(
      '--text-markers and --json-tool-calls are two ways for a model to call tools: give one',
    );
  }
  return markers ? 'markers' : json ? 'json' : 'native';
}

/** True when the environment names a key or a base URL (the REPL's default model then). */
export function hasRemoteModel(env: RemoteModelOptions['env']): boolean {
  return set(env['OPENAI_API_KEY']) || set(env['OPENAI_BASE_URL']);
}

/** The model, or the problem to print before exiting 2. */
export function remoteModel(o: RemoteModelOptions): Model | { readonly problem: string } {
  const key = o.env['OPENAI_API_KEY'];
  const baseURL = o.baseUrl ?? o.env['OPENAI_BASE_URL'];
  const misnamed = o.baseUrl === undefined ? misnamedBaseUrlVariable(o.env) : undefined;
  if (!set(key) && !set(baseURL))
    return {
      problem:
        misnamed === undefined
          ? o.missing
          : `${o.missing} (${misnamed} is set, but the base URL is read from OPENAI_BASE_URL: rename it)`,
    };
  // A key and a base URL in another tool's variable: said once, since the calls go to OpenAI.
  if (misnamed !== undefined && !set(baseURL)) o.warn?.(misnamedBaseUrlMessage(misnamed));
  if (set(baseURL)) {
    const problem = baseUrlProblem(
      baseURL,
      o.baseUrl !== undefined ? '--base-url' : 'OPENAI_BASE_URL',
    );
    if (problem !== undefined) return { problem };
  }
  const remote = openaiModel({
    model: o.modelName ?? (o.env['OPENAI_MODEL'] || DEFAULT_OPENAI_MODEL),
    apiKey: set(key) ? key : 'not-needed',
    // Given explicitly: the commands read `io.env`, which is not always `process.env`.
    baseURL: set(baseURL) ? baseURL : 'https://api.openai.com/v1',
  });
  if (o.toolCalls === 'markers') return withTextMarkers(remote);
  return o.toolCalls === 'json' ? withJsonToolCalls(remote) : remote;
}

/**
 * `--model manual|openai` of `repl` and `studio`: `manual`, the remote model, or undefined once
 * the problem is written to stderr (the command then exits 2).
 */
export function manualOrRemote(o: {
  readonly command: string;
  readonly mode: 'manual' | 'openai';
  readonly io: Pick<CliIO, 'env' | 'stderr'>;
  readonly toolCalls: ToolCallTransport;
}): Model | 'manual' | undefined {
  if (o.mode === 'manual') {
    // The person at the keyboard answers as the model (/call), so no transport applies.
    if (o.toolCalls !== 'native') {
      const flag = o.toolCalls === 'markers' ? '--text-markers' : '--json-tool-calls';
      o.io.stderr.write(
        `warning: ${flag} has no effect with --model manual (you call tools with /call)\n`,
      );
    }
    return 'manual';
  }
  const remote = remoteModel({
    env: o.io.env,
    missing: '--model openai needs OPENAI_API_KEY or OPENAI_BASE_URL',
    toolCalls: o.toolCalls,
    warn: (line) => o.io.stderr.write(`warning: ${line}\n`),
  });
  if (!('problem' in remote)) return remote;
  o.io.stderr.write(`switchboard ${o.command}: ${remote.problem}\n`);
  return undefined;
}

function set(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}
