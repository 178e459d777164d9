/**
 * The evolving argument object of one application, without copying it until the end: the
 * caller's object (`input`, never mutated) plus an overlay of root-level writes and removals.
 * `materialize` builds the result in one pass, in the key order sequential writes would give
 * (existing keys keep their place; new keys, and keys removed then written again, go last).
 * This saves a root copy per write/remove pair — the hot path of dotted-key rules that end with
 * `"foo": "@remove"` — and allocations: the overlay is one flat array of
 * `[key, value, flags, key, value, flags, …]`.
 */
import { ownValue, setOwn, shallowCopy, type PlainObject } from '../own-data.js';

const REMOVED: unique symbol = Symbol('removed');

/** Removed from the input, then written again: goes after the input's keys. */
const MOVED = 1;
/** The value is an object this application created (safe to write into). */
const OWNED = 2;
/** The key is an own key of the input. */
const IN_INPUT = 4;

/** Arguments as they stand during one application. */
export interface ArgsView {
  readonly input: PlainObject;
  overlay: unknown[] | undefined;
  /** Union of the {@link keyBit}s of the overlay's keys: a key whose bit is clear is not there. */
  mask: number;
  /** How many overlay entries are keys of the input (0: the result is a copy plus new keys). */
  touched: number;
}

/** A view of `input` with nothing changed yet. */
export function viewOf(input: PlainObject): ArgsView {
  return { input, overlay: undefined, mask: 0, touched: 0 };
}

/**
 * A one-bit summary of a key (a tiny Bloom filter), computed once at load for every key a rule
 * or template names, so reading an argument the overlay has never touched skips the scan.
 */
export function keyBit(key: string): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return 1 << ((h >>> 0) % 31);
}

/** Appends an entry; `inInput` may be given when the caller knows (an own key of the input). */
function push(
  view: ArgsView,
  key: string,
  value: unknown,
  flags: number,
  inInput?: boolean,
  bit?: number,
): void {
  let f = flags;
  if (inInput ?? Object.hasOwn(view.input, key)) {
    f |= IN_INPUT;
    view.touched++;
  }
  view.mask |= bit ?? keyBit(key);
  if (view.overlay === undefined) view.overlay = [key, value, f];
  else view.overlay.push(key, value, f);
}

/** Index of `key` in the overlay, or -1. */
function find(overlay: unknown[], key: string): number {
  for (let i = 0; i < overlay.length; i += 3) if (overlay[i] === key) return i;
  return -1;
}

/**
 * Where `key` is in the overlay (-1: not there). A slot stays valid until the overlay changes,
 * which lets a rule look a root key up once and then read, test and write it.
 */
export function slot(view: ArgsView, key: string, bit?: number): number {
  const overlay = view.overlay;
  if (overlay === undefined || (bit !== undefined && (view.mask & bit) === 0)) return -1;
  return find(overlay, key);
}

/**
 * The current value of the root argument at a slot, or undefined if absent. Arguments are JSON
 * data parsed by the engine, which has no accessors, so this is a plain own-property read;
 * nested values and session variables are read through property descriptors (see `field-path`).
 */
export function valueAt(view: ArgsView, i: number, key: string): unknown {
  if (i < 0) return ownValue(view.input, key);
  const v = (view.overlay as unknown[])[i + 1];
  return v === REMOVED ? undefined : v;
}

/** Whether the root argument at a slot is an object this application created (writable). */
export function ownedAt(view: ArgsView, i: number): boolean {
  return i >= 0 && (((view.overlay as unknown[])[i + 2] as number) & OWNED) !== 0;
}

/** The current value of a root argument, or undefined if absent; `bit` is the key's {@link keyBit}. */
export function readArg(view: ArgsView, key: string, bit?: number): unknown {
  return valueAt(view, slot(view, key, bit), key);
}

/** The root argument if it is an object this application created and may write into. */
export function ownedArg(view: ArgsView, key: string): PlainObject | undefined {
  const i = slot(view, key);
  return ownedAt(view, i) ? ((view.overlay as unknown[])[i + 1] as PlainObject) : undefined;
}

/** Whether a root argument is present. */
export function hasArg(view: ArgsView, key: string): boolean {
  const i = slot(view, key);
  return i < 0 ? Object.hasOwn(view.input, key) : (view.overlay as unknown[])[i + 1] !== REMOVED;
}

/**
 * Writes the root argument at a slot; `owned` marks an object this application created.
 * `inInput` (for a key not in the overlay) saves a lookup when the caller read the key already;
 * an own key whose value is `undefined` may be reported as absent — harmless, `materialize` then
 * overwrites it in place. `bit` is the key's {@link keyBit} when the caller has it.
 */
export function setAt(
  view: ArgsView,
  i: number,
  key: string,
  value: unknown,
  owned: boolean,
  inInput?: boolean,
  bit?: number,
): void {
  const flags = owned ? OWNED : 0;
  if (i < 0) {
    push(view, key, value, flags, inInput, bit);
    return;
  }
  const o = view.overlay as unknown[];
  const old = o[i + 2] as number;
  if (o[i + 1] !== REMOVED) {
    o[i + 1] = value;
    o[i + 2] = (old & (MOVED | IN_INPUT)) | flags;
  } else {
    o.splice(i, 3);
    o.push(key, value, (old & IN_INPUT) | flags | MOVED);
  }
}

/** Writes a root argument; `owned` marks an object this application created. */
export function setArg(view: ArgsView, key: string, value: unknown, owned = false): void {
  setAt(view, slot(view, key), key, value, owned);
}

/** Removes the root argument at a slot (the caller checked it is present, so it is an input key when not in the overlay). */
export function removeAt(view: ArgsView, i: number, key: string, bit?: number): void {
  if (i < 0) {
    push(view, key, REMOVED, 0, true, bit);
    return;
  }
  const o = view.overlay as unknown[];
  o[i + 1] = REMOVED;
  o[i + 2] = (o[i + 2] as number) & ~OWNED;
}

/** The arguments as a new plain object (never the caller's). */
export function materialize(view: ArgsView): PlainObject {
  const overlay = view.overlay;
  const input = view.input;
  if (overlay === undefined) return shallowCopy(input);
  let out: PlainObject;
  if (view.touched === 0) out = shallowCopy(input);
  else {
    out = {};
    const keys = Object.keys(input);
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j] as string;
      const i = find(overlay, k);
      const v =
        i < 0 ? input[k] : ((overlay[i + 2] as number) & MOVED) !== 0 ? REMOVED : overlay[i + 1];
      if (v === REMOVED) continue;
      if (k === '__proto__') setOwn(out, k, v);
      else out[k] = v;
    }
  }
  for (let i = 0; i < overlay.length; i += 3) {
    const k = overlay[i] as string;
    const v = overlay[i + 1];
    const flags = overlay[i + 2] as number;
    if (v === REMOVED || (flags & (IN_INPUT | MOVED)) === IN_INPUT) continue;
    if (k === '__proto__') setOwn(out, k, v);
    else out[k] = v;
  }
  return out;
}
