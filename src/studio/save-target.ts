/**
 * Where "save as fixture" may write. Its name is a plain file name, so the file is in the
 * fixtures folder; but a symbolic link already there under that name (from a cloned repository,
 * say) would carry the write to wherever it points, such as a shell start-up file. Such a link is
 * followed only when it stays inside the folder.
 */
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { StudioProblem } from './studio-problem.js';

/** Resolves when `file` (in `dir`) may be written; a 409 `outside_fixtures` otherwise. */
export async function checkSaveTarget(dir: string, file: string): Promise<void> {
  const link = await lstat(file).then(
    (s) => s.isSymbolicLink(),
    () => false, // nothing there yet: a new file in the folder
  );
  if (!link) return;
  // A dangling link counts as outside: writing would create its target, wherever that is.
  const [root, target] = await Promise.all([realpath(dir), realpath(file).catch(() => undefined)]);
  const rel = target === undefined ? undefined : relative(root, target);
  if (
    rel !== undefined &&
    rel !== '' &&
    !isAbsolute(rel) &&
    rel !== '..' &&
    !rel.startsWith(`..${sep}`)
  )
    return;
  throw new StudioProblem(
    409,
    'outside_fixtures',
    `${JSON.stringify(file)} is a symbolic link leading outside the fixtures folder${target === undefined ? ' (to nothing yet)' : ` (to ${JSON.stringify(target)})`}; not written: save under another name`,
  );
}
