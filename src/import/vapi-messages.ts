/**
 * A Vapi tool's spoken messages and response extraction → switchboard options: `request-start` →
 * `speech.before`, `request-response-delayed` → bridge phrases, `request-failed` →
 * `speech.on_error["*"]`, `variableExtractionPlan.aliases` → `options.save`.
 */
import type { FieldPath, ToolWarnings } from './conversion-context.js';
import { toJmesPath, type DraftTool } from './draft-tool.js';
import { addBridge, addPhrase, setBefore, setOnError, type Phrases } from './messages.js';
import { VAPI_DIALECT, type VapiMessage, type VapiTool } from './vapi-schema.js';
import { toMustache, vendorVariables } from './variables.js';

/** `variableExtractionPlan.aliases` whose value is one `{{path}}` → `options.save`. */
export function extraction(t: VapiTool, w: ToolWarnings, d: DraftTool): void {
  const plan = t.variableExtractionPlan;
  if (plan === undefined) return;
  w.unknownFields(plan, ['aliases'], ['variableExtractionPlan']);
  for (const [i, alias] of (plan.aliases ?? []).entries()) {
    const m = /^\{\{\s*\$?\.?([^{}|]+?)\s*\}\}$/.exec(alias.value);
    const from = m ? toJmesPath(m[1]!) : undefined;
    if (from === undefined)
      w.warn(
        ['variableExtractionPlan', 'aliases', i],
        `"${alias.value}" is not a plain path into the response; not imported`,
      );
    else (d.options.save ??= []).push({ from, to: alias.key });
  }
}

/**
 * The message's phrases. With `asWritten` (pre-tool and bridge phrases, which switchboard speaks
 * without rendering), a phrase holding Liquid is left out with a warning naming its variables:
 * it would be spoken with the braces.
 */
function phrasesOf(m: VapiMessage, w?: ToolWarnings, field?: FieldPath): Phrases {
  const phrases: Phrases = {};
  const add = (text: string, language: string, at: FieldPath): void => {
    const vars = w !== undefined ? vendorVariables(text) : [];
    if (vars.length === 0) addPhrase(phrases, text, language);
    else
      w!.warn(
        at,
        `switchboard speaks this phrase as written, so its Liquid (${vars.map((v) => `{{${v}}}`).join(', ')}) would be read out as braces; not imported`,
      );
  };
  for (const [i, c] of (m.contents ?? []).entries())
    if (c.text !== undefined) add(c.text, c.language ?? '*', [...(field ?? []), 'contents', i]);
  if (
    !(m.contents ?? []).some((c) => c.text !== undefined) &&
    m.content !== undefined &&
    m.content !== ''
  )
    add(m.content, '*', [...(field ?? []), 'content']);
  return phrases;
}

/** The tool's messages as voice options; `action` tools already wait for speech. */
export function messages(t: VapiTool, w: ToolWarnings, d: DraftTool, action: boolean): void {
  for (const [i, m] of (t.messages ?? []).entries()) {
    const field: FieldPath = ['messages', i];
    if (m.conditions !== undefined && m.conditions.length > 0)
      w.warn(
        [...field, 'conditions'],
        'message conditions on the arguments have no switchboard equivalent; the message is always used',
      );
    if (['request-start', 'request-response-delayed', 'request-failed'].includes(m.type))
      messageFields(m, w, field);
    switch (m.type) {
      case 'request-start':
        setBefore(d.options, phrasesOf(m, w, field));
        // Actions already wait for earlier speech (docs/voice.md); only endpoints need the flag.
        if (m.blocking === true && !action)
          d.options.speech = { ...d.options.speech, after_speech: true };
        break;
      case 'request-response-delayed':
        addBridge(d.options, phrasesOf(m, w, field));
        if (m.timingMilliseconds !== undefined)
          w.warn(
            [...field, 'timingMilliseconds'],
            "bridge phrases start at the session's bridge threshold (session option bridge.thresholdSecs, default 2.75 s), not per tool",
          );
        break;
      case 'request-failed': {
        // Spoken error phrases are mustache: Vapi's Liquid variables are translated, the rest
        // stays literal.
        const phrases = phrasesOf(m);
        for (const list of Object.values(phrases))
          list.forEach((text, i) => {
            list[i] = toMustache(text, VAPI_DIALECT, (message) => w.warn(field, message));
          });
        setOnError(d.options, phrases);
        break;
      }
      default:
        w.warn(
          field,
          `a "${m.type}" message has no switchboard equivalent (the model speaks after the result); ignored`,
        );
    }
  }
}

const MESSAGE_FIELDS = [
  'type',
  'content',
  'contents',
  'blocking',
  'timingMilliseconds',
  'conditions',
];

/** Every other field of a message switchboard speaks is a warning (a community transfer's
 * `endCallAfterSpokenEnabled` was dropped without one); its default (`false`) says nothing. */
function messageFields(m: VapiMessage, w: ToolWarnings, field: FieldPath): void {
  for (const key of Object.keys(m)) {
    if (MESSAGE_FIELDS.includes(key)) continue;
    if (key === 'endCallAfterSpokenEnabled') {
      if (m[key] === true)
        w.warn(
          [...field, key],
          'Vapi ends the call after speaking this phrase; switchboard does not (end the call in the host); ignored',
        );
      continue;
    }
    w.warn([...field, key], 'not a field switchboard maps; ignored');
  }
}
