/** `SessionOptions.closeWith`: the resources a session closes after itself (docs/session.md). */
import type { SessionOptions } from './types.js';

/** Closes each resource in order, trying every one; then throws the first failure, if any. */
export async function closeResources(resources: SessionOptions['closeWith']): Promise<void> {
  let failure: { readonly error: unknown } | undefined;
  for (const resource of resources ?? []) {
    try {
      await resource.close();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure !== undefined) throw failure.error;
}
