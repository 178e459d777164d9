// API Extractor's `ae-forgotten-export` (a type an exported signature uses, not exported by that
// entry) as the public API check needs it: the package has several entries, and a type exported
// by any of them can be named by a user (`import type { Session } from 'switchboard'` in a
// program using `switchboard/testing`), so only a type exported by no entry is a defect.
// API Extractor judges one entry at a time and its message names the symbol and the declaration
// that uses it, not the symbol's own declaration; this finds that declaration with the
// TypeScript checker and compares it with every entry's exports.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';

/** Every declaration some entry exports (aliases followed to what they name). */
function exportedDeclarations(program, entryFiles) {
  const checker = program.getTypeChecker();
  const out = new Set();
  for (const file of entryFiles) {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) continue;
    for (const symbol of checker.getExportsOfModule(module))
      for (const declaration of resolve(checker, symbol).declarations ?? []) out.add(declaration);
  }
  return out;
}

function resolve(checker, symbol) {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** The outermost node starting at `pos`: the declaration API Extractor's message points at. */
function nodeAt(source, pos) {
  let found;
  const visit = (node) => {
    if (found !== undefined || pos < node.pos || pos >= node.end) return;
    if (node.getStart(source) === pos) found = node;
    else ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return found;
}

/** `Interface.member` or `name` of the declaration using the type, for the message. */
function declarationName(node) {
  const names = [];
  for (let n = node; n !== undefined && !ts.isSourceFile(n); n = n.parent) {
    const name = ts.getNameOfDeclaration(n);
    if (name !== undefined) names.unshift(name.getText());
  }
  return names.join('.') || '(unnamed)';
}

/**
 * Collects API Extractor's ae-forgotten-export messages and, at the end, returns those naming a
 * type no entry exports. `entry(message)` is called from the extractor's message callback.
 */
export function forgottenExports({ root, program, entryFiles }) {
  const messages = [];
  return {
    collect(entry, message) {
      messages.push({ entry, message });
    },
    /** `{ entry, name, usedBy, file }` for each type a user cannot name. */
    unnameable() {
      const exported = exportedDeclarations(program, entryFiles);
      const checker = program.getTypeChecker();
      const out = [];
      for (const { entry, message } of messages) {
        const name = /The symbol "([^"]+)"/.exec(message.text)?.[1] ?? message.text;
        // A name API Extractor renamed to avoid a clash (`Session_2`) is `Session` in the code.
        const names = new Set([name, name.replace(/_\d+$/, '')]);
        const source = program.getSourceFile(message.sourceFilePath ?? '');
        const user =
          source === undefined
            ? undefined
            : nodeAt(
                source,
                source.getPositionOfLineAndCharacter(
                  (message.sourceFileLine ?? 1) - 1,
                  (message.sourceFileColumn ?? 1) - 1,
                ),
              );
        let named = false;
        const visit = (node) => {
          if (named) return;
          if (ts.isIdentifier(node) && names.has(node.text)) {
            const symbol = checker.getSymbolAtLocation(node);
            if (symbol !== undefined)
              named = (resolve(checker, symbol).declarations ?? []).some((d) => exported.has(d));
          }
          ts.forEachChild(node, visit);
        };
        if (user !== undefined) visit(user);
        if (named) continue;
        const dts = relative(root, message.sourceFilePath ?? '');
        const src = dts.replace(/^dist\//, 'src/').replace(/\.d\.ts$/, '.ts');
        out.push({
          entry,
          name: [...names].at(-1),
          usedBy: user === undefined ? '(unknown)' : declarationName(user),
          file: existsSync(`${root}/${src}`) ? src : dts,
        });
      }
      return out;
    },
  };
}
