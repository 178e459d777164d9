/**
 * Renders a definition's `result` over session variables with the transform area's mustache
 * (`{{vars.x}}`, `{{vars.session.language}}`, no HTML escaping): every string inside the value is
 * a template; other values are copied as they are.
 */
import { renderMustache, type MustacheView } from '../expressions/mustache.js';

function renderString(template: string, view: MustacheView): string {
  try {
    return renderMustache(template, view);
  } catch {
    // The loader checks templates; one that still fails is returned as written, never a crash.
    return template;
  }
}

/** Deep copy of `value` with every string rendered as a mustache template. */
export function renderResult(value: unknown, view: MustacheView): unknown {
  if (typeof value === 'string') return renderString(value, view);
  if (Array.isArray(value)) return value.map((v) => renderResult(v, view));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: renderResult(v, view),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
