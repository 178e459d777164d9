/**
 * Renders a JSON path (`tools[2].endpoint.method`, `tools[0].defaults["tags.hospital"]`) from
 * segments, the way every load-time issue names where it is.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends one segment to a rendered path. */
export function joinPath(base: string, segment: string | number | symbol): string {
  if (typeof segment === 'number') return `${base}[${segment}]`;
  const name = typeof segment === 'symbol' ? String(segment) : segment;
  if (IDENTIFIER.test(name)) return base === '' ? name : `${base}.${name}`;
  return `${base}[${JSON.stringify(name)}]`;
}

/** Renders a list of segments under a base path. */
export function formatPath(base: string, segments: readonly PropertyKey[]): string {
  let path = base;
  for (const segment of segments) path = joinPath(path, segment);
  return path;
}
