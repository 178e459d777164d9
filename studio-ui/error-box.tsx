/** An error shown where it happened, with its code. */
import type { StudioError } from '../src/studio/protocol.js';

export function ErrorBox({ error }: { readonly error: StudioError | undefined }) {
  if (error === undefined) return null;
  return (
    <p class="error" role="alert" data-testid="error">
      <code>{error.code}</code> {error.message}
    </p>
  );
}

/** JSON, pretty-printed. */
export function Json({ value }: { readonly value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}
