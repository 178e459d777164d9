/**
 * JMESPath checked at load time without running it (`options.save` rules and workflow
 * expressions are compiled when a definition loads, never first at call time).
 */
import * as jmespath from 'jmespath';

// @types/jmespath declares only `search`; the package also exports `compile` (a parse-only check).
const compile = (jmespath as unknown as { compile?: (expression: string) => unknown }).compile;

/**
 * Checks a JMESPath expression without running it, for the loader to report at load time.
 * @returns a short problem description, or undefined when the expression is valid.
 */
export function checkSaveExpression(expression: string): string | undefined {
  if (expression.trim() === '') return 'empty JMESPath expression';
  try {
    if (compile !== undefined) compile(expression);
    else jmespath.search(null, expression);
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : 'invalid expression';
    return `invalid JMESPath expression: ${message.split('\n', 1)[0] ?? ''}`;
  }
}
