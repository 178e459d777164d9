/** switchboard's version, for `--version` and what a command reports of itself (the MCP handshake). */
import { readFileSync } from 'node:fs';

/** The version in package.json. */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '0.0.0';
}
