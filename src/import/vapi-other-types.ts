/**
 * Vapi call-control and Vapi-run tool types (transferCall, handoff, code, voicemail…): imported as
 * actions the host implements, keeping what the model sees, with a warning for every field that
 * cannot be carried over (docs/import.md, Vapi).
 */
import { isPlainObject, type PlainObject } from '../own-data.js';
import type { FieldPath, ToolWarnings } from './conversion-context.js';
import { transferDestination, type DraftTool } from './draft-tool.js';
import { setBefore } from './messages.js';
import type { VapiTool } from './vapi-schema.js';

/** Fields every Vapi tool type shares; read by the common import path. */
const SHARED = [
  'type',
  'function',
  'messages',
  'rejectionPlan',
  'id',
  'orgId',
  'createdAt',
  'updatedAt',
];

/**
 * Vapi's code-tool page writes `name`, `description` and `parameters` (a JSON Schema) at the top
 * of a `code` tool, where the SDK's `CreateCodeToolDto` has `function`. The page's form is read as
 * the SDK's, so its `parameters` is the function's schema, not the static parameter list.
 */
export function codeToolForm(raw: unknown): unknown {
  if (!isPlainObject(raw) || raw['type'] !== 'code' || raw['function'] !== undefined) return raw;
  if (typeof raw['name'] !== 'string') return raw;
  const { name, description, parameters, ...rest } = raw;
  return {
    ...rest,
    function: {
      name,
      ...(description !== undefined ? { description } : {}),
      ...(parameters !== undefined ? { parameters } : {}),
    },
  };
}

/**
 * The fields of a tool Vapi runs itself that the action cannot carry: each gets a warning saying
 * what it did in Vapi. A handoff's destinations are read by {@link handoffDestinations}.
 */
export function otherTypeFields(t: VapiTool, w: ToolWarnings): void {
  for (const key of Object.keys(t)) {
    if (SHARED.includes(key) || (t.type === 'handoff' && key === 'destinations')) continue;
    if (key === 'code')
      w.warn(
        [key],
        'Vapi runs this code in its sandbox; the host implements the action instead; not imported',
      );
    else if (key === 'environmentVariables')
      w.warn([key], "the code's environment (values may be secrets); not imported");
    else if (key === 'async' && t.async === false) continue;
    else
      w.warn([key], `a setting of Vapi's "${t.type}" tool, which runs inside Vapi; not imported`);
  }
}

/**
 * A handoff's destinations (other assistants or squads) → the action's `destination`, as for a
 * transfer: one is fixed, several are an enum the model picks from (with their descriptions).
 */
export function handoffDestinations(t: VapiTool, w: ToolWarnings, d: DraftTool): void {
  const targets: { value: string; description?: string }[] = [];
  for (const [i, raw] of (t.destinations ?? []).entries()) {
    const dest: PlainObject = raw;
    const field: FieldPath = ['destinations', i];
    const value = [
      dest['assistantName'],
      dest['assistantId'],
      dest['squadName'],
      dest['squadId'],
    ].find((v): v is string => typeof v === 'string' && v !== '');
    for (const key of Object.keys(dest))
      if (
        !['type', 'assistantName', 'assistantId', 'squadName', 'squadId', 'description'].includes(
          key,
        )
      )
        w.warn(
          [...field, key],
          "a setting of Vapi's handoff (the host's action decides it); not imported",
        );
    if (value === undefined) {
      w.warn(
        field,
        'a destination without assistantName, assistantId, squadName or squadId; not imported',
      );
      continue;
    }
    const description = dest['description'];
    targets.push({ value, ...(typeof description === 'string' ? { description } : {}) });
  }
  transferDestination(d, targets, w, ['destinations']);
}

/** A transferCall's destinations → the action's `destination`; one destination's message is spoken first. */
export function transferDestinations(t: VapiTool, w: ToolWarnings, d: DraftTool): void {
  const targets: { value: string; description?: string }[] = [];
  for (const [i, dest] of (t.destinations ?? []).entries()) {
    const value = dest.number ?? dest.sipUri ?? dest.assistantName;
    const field: FieldPath = ['destinations', i];
    w.unknownFields(
      dest,
      ['type', 'number', 'sipUri', 'assistantName', 'description', 'message'],
      field,
    );
    if (value === undefined) {
      w.warn(field, 'destination without number, sipUri or assistantName; not imported');
      continue;
    }
    targets.push({
      value,
      ...(dest.description !== undefined ? { description: dest.description } : {}),
    });
    if (
      typeof dest.message === 'string' &&
      dest.message !== '' &&
      (t.destinations ?? []).length === 1
    )
      setBefore(d.options, { '*': [dest.message] });
    else if (dest.message !== undefined)
      w.warn(
        [...field, 'message'],
        'a per-destination message needs one destination; not imported',
      );
  }
  transferDestination(d, targets, w, ['destinations']);
}
