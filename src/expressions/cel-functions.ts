/**
 * A call of a function CEL does not have (`lenght(x)`, `x.lowercase()`) parses, and fails only
 * when evaluated — where a failing condition is false, so the step would silently never be taken.
 * It is found at load instead, with the function it is close to.
 */
import type { parse } from '@bufbuild/cel';
import { didYouMean } from '../did-you-mean.js';

type Expr = NonNullable<ReturnType<typeof parse>['expr']>;

/** Names offered as "did you mean" (the standard library and the strings extension). */
const COMMON = [
  'size',
  'contains',
  'startsWith',
  'endsWith',
  'matches',
  'exists',
  'all',
  'exists_one',
  'map',
  'filter',
  'has',
  'int',
  'uint',
  'double',
  'string',
  'bytes',
  'bool',
  'type',
  'dyn',
  'duration',
  'timestamp',
  'charAt',
  'indexOf',
  'lastIndexOf',
  'lowerAscii',
  'upperAscii',
  'replace',
  'split',
  'substring',
  'trim',
  'join',
  'format',
  'quote',
  'reverse',
  'getFullYear',
  'getMonth',
  'getDayOfMonth',
  'getDayOfWeek',
  'getDayOfYear',
  'getHours',
  'getMinutes',
  'getSeconds',
  'getMilliseconds',
  'getDate',
];

/**
 * The first call in `root` of a function `known` does not name, as a message, or undefined.
 * `strings.quote(x)` is a call of `strings.quote` (`namespaced` names such functions).
 */
export function unknownFunction(
  root: Expr,
  known: (name: string) => boolean,
  namespaced: ReadonlySet<string>,
): string | undefined {
  const stack: Expr[] = [root];
  while (stack.length > 0) {
    const e = stack.pop()!;
    const k = e.exprKind;
    switch (k.case) {
      case 'callExpr': {
        const c = k.value;
        const target = c.target?.exprKind;
        const full =
          target?.case === 'identExpr' ? `${target.value.name}.${c.function}` : undefined;
        const isNamespaced = full !== undefined && namespaced.has(full);
        // Operators (`_&&_`, `_?_:_`, `_[_]`) and internal names are the parser's, never spelt.
        const operator = /^[_@]/.test(c.function);
        if (!isNamespaced && !operator && !known(c.function))
          return `unknown function ${c.function}()${didYouMean(c.function, COMMON.filter(known))}`;
        // Pushed last-first, so calls are met in source order.
        stack.push(...[...c.args].reverse());
        if (c.target !== undefined && !isNamespaced) stack.push(c.target);
        break;
      }
      case 'selectExpr':
        if (k.value.operand !== undefined) stack.push(k.value.operand);
        break;
      case 'listExpr':
        stack.push(...[...k.value.elements].reverse());
        break;
      case 'structExpr':
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') stack.push(entry.keyKind.value);
          if (entry.value !== undefined) stack.push(entry.value);
        }
        break;
      case 'comprehensionExpr': {
        const c = k.value;
        for (const part of [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result])
          if (part !== undefined) stack.push(part);
        break;
      }
      default:
        break;
    }
  }
  return undefined;
}
