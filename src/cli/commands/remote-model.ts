/**
 * The OpenAI-compatible model `repl`, `studio` and `serve` talk to, from the environment
 * (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL`) and the command's own flags: the same
 * checks, so a bad base URL or a missing key reads the same from every command.
 */
import { baseUrlProblem } from '../../models/base-url.js';
import { openaiModel } from '../../models/openai.js';
import { withTextMarkers } from '../../models/text-markers.js';
import type { Model } from '../../models/types.js';

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
  readonly textMarkers: boolean;
}

/** True when the environment names a key or a base URL (the REPL's default model then). */
export function hasRemoteModel(env: RemoteModelOptions['env']): boolean {
  return set(env['OPENAI_API_KEY']) || set(env['OPENAI_BASE_URL']);
}

/** The model, or the problem to print before exiting 2. */
export function remoteModel(o: RemoteModelOptions): Model | { readonly problem: string } {
  const key = o.env['OPENAI_API_KEY'];
  const baseURL = o.baseUrl ?? o.env['OPENAI_BASE_URL'];
  if (!set(key) && !set(baseURL)) return { problem: o.missing };
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
    ...(set(baseURL) ? { baseURL } : {}),
  });
  return o.textMarkers ? withTextMarkers(remote) : remote;
}

function set(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}
