/**
 * A Vapi GET or DELETE sends its URL alone, Liquid filled in (docs/import.md, Vapi), while
 * switchboard sends such a call's arguments and hidden values in the query string. The export
 * writes each of them into the URL's query as Liquid, in the order switchboard sends them:
 * the arguments, then static values, then values of rules. What Vapi would not send either (an
 * argument removed by an unconditional `@remove` rule) is left out.
 */
import type { ExportView, RuleView } from './export-view.js';
import { appendQuery } from './http-parts.js';
import { hasVendorVariable } from './variables.js';

/** True for the methods whose Vapi request is the URL alone. */
export function urlOnly(method: string): boolean {
  return method === 'get' || method === 'delete';
}

/**
 * The arguments an unconditional `@remove` rule keeps out of the request, and the rules left:
 * the import of a Vapi GET writes one for each argument its URL does not name.
 */
export function removedArguments(
  v: ExportView,
  rules: readonly RuleView[],
): { removed: Set<string>; rest: RuleView[] } {
  const removed = new Set<string>();
  const rest: RuleView[] = [];
  for (const rule of rules) {
    if (rule.action === 'remove' && !rule.conditional && Object.hasOwn(v.properties, rule.key))
      removed.add(rule.key);
    else rest.push(rule);
  }
  return { removed, rest };
}

/**
 * `url` with the query pairs switchboard sends: each argument not in the path and not removed
 * (`name={{name}}`, or the Liquid of a rule overriding it), then each hidden value.
 */
export function withQuery(
  v: ExportView,
  url: string,
  args: readonly [string, string][],
  hidden: ReadonlyMap<string, unknown>,
): string {
  const pairs = args.map(([key, value]) => pair(key, value));
  for (const [key, value] of hidden) {
    const list = Array.isArray(value) ? (value as unknown[]) : [value];
    for (const item of list) {
      if (item === null || item === undefined) continue;
      const text = typeof item === 'object' ? JSON.stringify(item) : String(item);
      if (typeof item === 'object' && hasVendorVariable(text))
        v.w.warn(
          ['defaults', key],
          `the Liquid inside the object "${key}" is sent in a ${v.def.endpoint!.method.toUpperCase()} query string as JSON text, where Vapi does not fill it; exported as written`,
        );
      pairs.push(pair(key, text));
    }
  }
  return appendQuery(url, pairs);
}

/** One `key=value` pair: Liquid kept as written, the literal text around it encoded. */
function pair(key: string, value: string): string {
  return `${encode(key)}=${encode(value)}`;
}

// What would end the pair or the query (`&`, `#`), read as a space (`+`), or is no URL text.
function encode(text: string): string {
  return text
    .split(/(\{\{[^{}]*\}\})/)
    .map((part, i) => (i % 2 === 1 ? part : encodeURI(part).replace(/[&#+=]/g, escape1)))
    .join('');
}

const escape1 = (c: string): string => encodeURIComponent(c);
