/**
 * The problems found while loading a Symphony configuration, each with its path (and file).
 */
import type { DefinitionIssue } from '../errors.js';

/** Problems found so far, each with the file. */
export class Issues {
  readonly list: DefinitionIssue[] = [];
  readonly #file: string | undefined;
  constructor(file: string | undefined) {
    this.#file = file;
  }
  error(path: string, message: string, code = 'schema'): void {
    this.#add({ code, severity: 'error', path, message });
  }
  warn(path: string, message: string, code: string): void {
    this.#add({ code, severity: 'warning', path, message });
  }
  failed(): boolean {
    return this.list.some((i) => i.severity === 'error');
  }
  #add(issue: DefinitionIssue): void {
    this.list.push(this.#file === undefined ? issue : { ...issue, file: this.#file });
  }
}
