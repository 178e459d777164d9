/**
 * attachRealtime's and connectRealtime's own options, checked when they are called (a
 * DefinitionError, as createSession's for the nested `session` options): a missing connection or
 * `session` was a TypeError reading `credentials` or `tools`, a string `transcriptWaitMs` or a
 * non-text header was accepted and failed later (or never waited).
 */
import {
  arrayOf,
  checkOptions,
  fields,
  integer,
  isFunction,
  isNonEmptyString,
  isPlainObjectCheck,
  isString,
  kindOf,
  type Check,
  MAX_TIMER_MS,
  recordOf,
  withMethods,
} from '../option-checks.js';

/** A key to scrub, or null: the OpenAI client's `apiKey` when it has none (nothing to scrub). */
const credential: Check = (value, path, sink) => {
  if (value !== null && typeof value !== 'string')
    sink.problem(path, `expected a string or null, got ${kindOf(value)}`);
};

const ATTACH = fields(
  {
    connection: withMethods('a Realtime connection (connectRealtime(...))', 'send', 'on'),
    // Its fields are the session's: createSession checks them.
    session: isPlainObjectCheck('session options'),
    // restoreSession checks the state itself.
    state: isPlainObjectCheck('a session state (session.toJSON())'),
    transcriptionModel: isNonEmptyString,
    transcriptWaitMs: integer(0, MAX_TIMER_MS),
    credentials: arrayOf(credential),
    onServerError: isFunction,
  },
  ['connection', 'session'],
);

/** The schemes `ws` opens. The value is never shown: its query may carry an API key. */
const WS_SCHEMES = new Set(['ws:', 'wss:', 'http:', 'https:']);
const websocketUrl: Check = (value, path, sink) => {
  if (typeof value !== 'string' || value === '') return isNonEmptyString(value, path, sink);
  let scheme: string;
  try {
    scheme = new URL(value).protocol;
  } catch {
    // `ws` threw a bare "SyntaxError: Invalid URL: <the url>", echoing the key in its query.
    return sink.problem(path, 'expected a ws: or wss: URL, got text that is not a URL');
  }
  if (!WS_SCHEMES.has(scheme))
    sink.problem(path, `expected a ws: or wss: URL, got a ${scheme} URL`);
};

const CONNECT = fields({ url: websocketUrl, headers: recordOf(isString) }, ['url']);

/** Throws a DefinitionError naming each wrong option of attachRealtime. */
export function checkAttachOptions(options: unknown): void {
  checkOptions(ATTACH, options, {
    caller: 'attachRealtime',
    onWarning: (options as { session?: { onWarning?: () => void } } | undefined)?.session
      ?.onWarning,
  });
}

/** Throws a DefinitionError naming each wrong option of connectRealtime, before connecting. */
export function checkConnectOptions(options: unknown): void {
  checkOptions(CONNECT, options, { caller: 'connectRealtime' });
}
