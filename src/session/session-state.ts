/**
 * The mutable state a live session holds, and its conversion to and from plain-JSON
 * {@link SessionState}. Variables are written with own-property definitions only, so a variable
 * named `__proto__` or `constructor` is stored like any other name.
 */
import type { ChatMessage } from '../models/types.js';
import type { SessionSystemValues } from '../transform/types.js';
import { restoreWorkflows, snapshotWorkflows, type WorkflowState } from './workflow/state.js';
import type { SessionState } from './types.js';

/** What a live session mutates between turns. */
export interface LiveState {
  readonly id: string;
  language: string;
  vars: Record<string, unknown>;
  agent: string | undefined;
  history: ChatMessage[];
  turns: number;
  ended: boolean;
  /** Workflow task states by task key. */
  workflows: Map<string, WorkflowState>;
}

/** Sets own properties of `target` from `updates` (never through a prototype setter). */
export function assignVars(
  target: Record<string, unknown>,
  updates: Readonly<Record<string, unknown>>,
): void {
  for (const key of Object.keys(updates)) {
    Object.defineProperty(target, key, {
      value: updates[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

/** Copies plain data (JSON semantics: functions and undefined dropped). */
export function jsonCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** What a plain-JSON state is made of: a live state's fields, or a capture of them. */
export interface StateFields {
  readonly id: string;
  readonly language: string;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly agent: string | undefined;
  readonly history: readonly ChatMessage[];
  readonly turns: number;
  readonly ended: boolean;
}

/**
 * The plain-JSON state of `fields` with the first `length` history messages. Messages are
 * immutable once created, so the history is copied shallowly; vars are deep-copied (JSON).
 */
export function plainState(
  fields: StateFields,
  length: number,
  workflows: Record<string, WorkflowState> | undefined,
): SessionState {
  return {
    version: 1,
    id: fields.id,
    language: fields.language,
    vars: jsonCopy(fields.vars),
    ...(fields.agent === undefined ? {} : { agent: fields.agent }),
    history: fields.history.slice(0, length),
    turns: fields.turns,
    ended: fields.ended,
    ...(workflows === undefined ? {} : { workflows }),
  };
}

/** A plain-JSON snapshot of the live state now. */
export function snapshotState(state: LiveState): SessionState {
  return plainState(
    state,
    state.history.length,
    state.workflows.size === 0 ? undefined : snapshotWorkflows(state.workflows),
  );
}

/** Checks the shape of a stored state before restoring it; throws a TypeError naming the problem. */
export function liveStateFrom(state: SessionState): LiveState {
  if (state === null || typeof state !== 'object')
    throw new TypeError('session state must be an object');
  if (state.version !== 1)
    throw new TypeError(`unsupported session state version ${String(state.version)}`);
  if (typeof state.id !== 'string' || typeof state.language !== 'string') {
    throw new TypeError('session state needs string id and language');
  }
  if (!Array.isArray(state.history)) throw new TypeError('session state history must be an array');
  const vars: Record<string, unknown> = {};
  assignVars(vars, jsonCopy(state.vars ?? {}));
  return {
    id: state.id,
    language: state.language,
    vars,
    agent: state.agent,
    history: jsonCopy(state.history),
    turns: typeof state.turns === 'number' ? state.turns : 0,
    ended: state.ended === true,
    workflows: restoreWorkflows(state.workflows),
  };
}

/**
 * A round's `vars.session.*` values, computed when first read and then kept for the round: most
 * rounds render no template naming them (a prompt without `{{`, cached tool descriptions, tools
 * without templates), and computing them every round was half a kilobyte and a date format per
 * turn. `datetime` is the time of that first read.
 */
export class LazySystemValues {
  readonly #source: { systemValues(): SessionSystemValues };
  #values: SessionSystemValues | undefined;

  constructor(source: { systemValues(): SessionSystemValues }) {
    this.#source = source;
  }

  get(): SessionSystemValues {
    return (this.#values ??= this.#source.systemValues());
  }
}

/**
 * The `vars.session.*` values at `now`. The date and weekday are formatted once per timezone and
 * UTC second (every offset is a whole number of seconds, so within one second the local date
 * cannot change): two Intl formats per round were a top cost of a turn, and most rounds render no
 * template naming them.
 */
export function systemValues(
  state: LiveState,
  now: number,
  extra:
    { readonly timezone?: string; readonly source?: string; readonly target?: string } | undefined,
): SessionSystemValues {
  const timezone = extra?.timezone ?? defaultTimezone();
  const date = new Date(now);
  const local = localDate(timezone, date);
  const values: { -readonly [K in keyof SessionSystemValues]: SessionSystemValues[K] } = {
    id: state.id,
    language: state.language,
    datetime: isoString(date),
    date: local.ymd,
    day_of_week: local.day,
    timezone,
  };
  if (extra?.source !== undefined) values.source = extra.source;
  if (extra?.target !== undefined) values.target = extra.target;
  return values;
}

// `toISOString` is a slow builtin; within one UTC second only the milliseconds change.
let isoSecond = NaN;
let isoPrefix = '';
function isoString(date: Date): string {
  const t = date.getTime();
  const second = Math.floor(t / 1000);
  if (second !== isoSecond) {
    const full = date.toISOString(); // throws for an invalid date, as before
    isoSecond = second;
    isoPrefix = full.slice(0, -4); // up to and including the '.' before the milliseconds
    return full;
  }
  const ms = t - second * 1000;
  return `${isoPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

interface LocalDate {
  readonly second: number;
  readonly ymd: string;
  readonly day: string;
}
const lastLocalDate = new Map<string, LocalDate>();
function localDate(timezone: string, date: Date): LocalDate {
  const second = Math.floor(date.getTime() / 1000);
  const last = lastLocalDate.get(timezone);
  if (last !== undefined && last.second === second) return last;
  const fmt = formatters(timezone);
  const found = { second, ymd: fmt.ymd.format(date), day: fmt.day.format(date) };
  if (lastLocalDate.size < 64 || last !== undefined) lastLocalDate.set(timezone, found);
  return found;
}

const formatterCache = new Map<string, { day: Intl.DateTimeFormat; ymd: Intl.DateTimeFormat }>();
// Creating Intl formatters is slow (ICU), so one pair per timezone is kept for the process.
function formatters(timezone: string): { day: Intl.DateTimeFormat; ymd: Intl.DateTimeFormat } {
  let f = formatterCache.get(timezone);
  if (f === undefined) {
    let tz = timezone;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
    } catch {
      tz = 'UTC';
    }
    f = {
      day: new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: tz }),
      ymd: new Intl.DateTimeFormat('en-CA', {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        timeZone: tz,
      }),
    };
    if (formatterCache.size < 64) formatterCache.set(timezone, f);
  }
  return f;
}

let hostTimezone: string | undefined;
function defaultTimezone(): string {
  hostTimezone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return hostTimezone;
}
