/**
 * Renders a definition's `result` over session variables (mustache, no HTML escaping): every
 * string inside the value is a template; other values are copied as they are.
 * TODO: switch to the transform area's `renderMustache` once src/transform/mustache.ts lands.
 */
import Mustache from 'mustache';

/** What templates can see: variables by name, `vars.*`, and `session.*` system values. */
export interface RenderView {
  readonly vars: Readonly<Record<string, unknown>>;
  readonly session?: Readonly<Record<string, unknown>>;
}

const NO_ESCAPE = { escape: (s: string): string => s };

function renderString(template: string, view: RenderView): string {
  if (!template.includes('{{')) return template;
  try {
    return Mustache.render(template, { ...view.vars, vars: view.vars, session: view.session ?? {} }, {}, NO_ESCAPE);
  } catch {
    // An unparsable template is returned as written rather than failing the tool.
    return template;
  }
}

/** Deep copy of `value` with every string rendered as a mustache template. */
export function renderResult(value: unknown, view: RenderView): unknown {
  if (typeof value === 'string') return renderString(value, view);
  if (Array.isArray(value)) return value.map((v) => renderResult(v, view));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: renderResult(v, view), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
