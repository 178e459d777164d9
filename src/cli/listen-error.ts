/**
 * Why a server command could not listen, said in terms of its options: a port already taken is
 * a mistake the person fixes with an option, not an "unexpected error" with a stack.
 */

/** The message for a listen failure (port taken, not permitted, no such address); else undefined. */
export function listenProblem(error: unknown, portHint: string): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, address, port } = error as Error & {
    code?: unknown;
    address?: unknown;
    port?: unknown;
  };
  const where =
    typeof address === 'string' && typeof port === 'number'
      ? `${address.includes(':') ? `[${address}]` : address}:${port}`
      : 'the address';
  if (code === 'EADDRINUSE')
    return `${where} is already in use (EADDRINUSE): choose another port with ${portHint}`;
  if (code === 'EACCES')
    return `${where}: permission denied (EACCES; ports below 1024 need privileges): choose another port with ${portHint}`;
  if (code === 'EADDRNOTAVAIL')
    return `${where}: the host is not an address of this machine (EADDRNOTAVAIL)`;
  return undefined;
}
