/**
 * Ultravox built-in tools referenced by `toolName` (its built-in-tools page): `hangUp`,
 * `leaveVoicemail` and `coldTransfer` become host actions, with the selected tool's
 * `nameOverride` / `descriptionOverride` and, for `coldTransfer`, the `target` override as the
 * transfer's destination. Every other override is a warning naming it (values are never copied:
 * `password` is a secret).
 */
import { isPlainObject } from '../own-data.js';
import type { ToolWarnings } from './conversion-context.js';
import { draft, transferDestination, type DraftTool } from './draft-tool.js';

/** The built-ins switchboard imports, with the description Ultravox gives the model. */
const BUILT_INS = new Map<string, string>([
  ['hangUp', 'End the call.'],
  ['leaveVoicemail', 'Leave a voicemail message and end the call.'],
  ['coldTransfer', 'Transfer the call to a human operator.'],
]);

/** True for a `toolName` switchboard imports as an action. */
export function isBuiltIn(name: string): boolean {
  return BUILT_INS.has(name);
}

/** The action for a selected built-in tool (see the module comment). */
export function builtInDraft(item: Record<string, unknown>, w: ToolWarnings): DraftTool {
  const toolName = String(item['toolName']);
  w.unknownFields(item, [
    'toolName',
    'nameOverride',
    'descriptionOverride',
    'parameterOverrides',
    'authTokens',
  ]);
  if (isPlainObject(item['authTokens']))
    for (const key of Object.keys(item['authTokens']))
      w.warn(['authTokens', key], 'a secret value; not imported');
  const named = typeof item['nameOverride'] === 'string';
  const d = draft(
    named ? String(item['nameOverride']) : toolName,
    [named ? 'nameOverride' : 'toolName'],
    typeof item['descriptionOverride'] === 'string'
      ? item['descriptionOverride']
      : BUILT_INS.get(toolName),
  );
  w.tool = d.name;
  const overrides = isPlainObject(item['parameterOverrides']) ? item['parameterOverrides'] : {};
  for (const [key, value] of Object.entries(overrides)) {
    if (toolName === 'coldTransfer' && key === 'target' && typeof value === 'string') continue;
    w.warn(
      ['parameterOverrides', key],
      key === 'password'
        ? 'a secret of the SIP transfer; not imported (the host transfers the call)'
        : `a setting of Ultravox's ${toolName} built-in; the host's action decides it; not imported`,
    );
  }
  if (toolName === 'coldTransfer') {
    const target = overrides['target'];
    transferDestination(d, typeof target === 'string' ? [{ value: target }] : [], w, [
      'parameterOverrides',
      'target',
    ]);
  }
  return d;
}
