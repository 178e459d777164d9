/**
 * JMESPath checked at load time without running it (`options.save` rules and workflow
 * expressions are compiled when a definition loads, never first at call time).
 */
import { jmespath } from '../lazy-deps.js';

/**
 * Checks a JMESPath expression without running it, for the loader to report at load time.
 * @returns a short problem description, or undefined when the expression is valid.
 */
export function checkSaveExpression(expression: string): string | undefined {
  if (expression.trim() === '') return 'empty JMESPath expression';
  try {
    const { compile, search } = jmespath();
    if (compile !== undefined) compile(expression);
    else search(null, expression);
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : 'invalid expression';
    return `invalid JMESPath expression: ${message.split('\n', 1)[0] ?? ''}`;
  }
}
