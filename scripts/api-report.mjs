// The public API report: one file per package entry under api/, written by API Extractor from the
// built declarations (dist/). `node scripts/api-report.mjs` checks that the reports match the
// code (npm test runs it); `--update` rewrites them after an intended change of the public surface.
// Either way it fails when an exported signature uses a type no entry exports (API Extractor's
// ae-forgotten-export): a user could not name that type, e.g. to type a variable they pass in.
// `--root DIR` checks another package laid out the same way (the check's own test).
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forgottenExports } from './forgotten-exports.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const rootAt = process.argv.indexOf('--root');
const root = rootAt === -1 ? repo : resolve(process.argv[rootAt + 1] ?? '.');
const update = process.argv.includes('--update');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Every code entry of package.json `exports` (`.` is reported as the package's name), so a new
// entry cannot go unchecked.
const ENTRIES = Object.fromEntries(
  Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && typeof target.types === 'string')
    .map(([entry, target]) => [entry === '.' ? manifest.name : entry.slice(2), target.types]),
);
/** How a user imports the entry: `switchboard`, `switchboard/testing`. */
const importName = (name) => (name === manifest.name ? name : `${manifest.name}/${name}`);

const temp = mkdtempSync(join(tmpdir(), 'switchboard-api-'));
let changed = [];
let unnameable = [];
try {
  const configs = Object.entries(ENTRIES).map(([name, dts]) => {
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: join(root, dts),
        compiler: { tsconfigFilePath: join(root, 'tsconfig.build.json') },
        apiReport: {
          enabled: true,
          reportFolder: join(root, 'api'),
          reportTempFolder: temp,
          reportFileName: name,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        // Off: release tags (ae-missing-release-tag), doc comments (ae-undocumented, TSDoc
        // syntax) and {@link} targets (ae-unresolved-link, mostly members and values of other
        // entries) are about the comments, not about what a user can write.
        messages: {
          extractorMessageReporting: {
            default: { logLevel: 'none' },
            'ae-forgotten-export': { logLevel: 'error', addToApiReportFile: false },
          },
          tsdocMessageReporting: { default: { logLevel: 'none' } },
          compilerMessageReporting: { default: { logLevel: 'error' } },
        },
      },
      configObjectFullPath: join(root, 'api', 'api-extractor.json'),
      packageJsonFullPath: join(root, 'package.json'),
    });
    return { name, config };
  });
  // One TypeScript program over every entry, shared by the runs (API Extractor's way for several
  // entry points): building a program per entry was most of the check's time.
  const compilerState = CompilerState.create(configs[0].config, {
    additionalEntryPoints: configs.map(({ config }) => config.mainEntryPointFilePath),
  });
  const forgotten = forgottenExports({
    root,
    program: compilerState.program,
    entryFiles: configs.map(({ config }) => config.mainEntryPointFilePath),
  });
  for (const { name, config } of configs) {
    let forgottenCount = 0;
    const result = Extractor.invoke(config, {
      localBuild: update,
      compilerState,
      typescriptCompilerFolder: join(repo, 'node_modules', 'typescript'),
      messageCallback: (message) => {
        if (message.messageId !== 'ae-forgotten-export') return;
        // Judged below, over every entry's exports, and reported once.
        forgotten.collect(importName(name), message);
        forgottenCount += 1;
        message.handled = true;
      },
    });
    if (result.apiReportChanged) changed.push(`api/${name}.api.md`);
    const errors = result.errorCount - forgottenCount;
    if (errors > 0) changed.push(`${name}: ${errors} error(s)`);
  }
  unnameable = forgotten.unnameable();
} finally {
  rmSync(temp, { recursive: true, force: true });
}
if (unnameable.length > 0) {
  console.error(
    'Exported signatures use types that no package entry exports, so a user cannot name them:\n' +
      unnameable
        .map((u) => `  ${u.entry}: ${u.name} (used by ${u.usedBy} in ${u.file})`)
        .join('\n') +
      '\nExport each type from the entry whose capability owns it, or narrow the signature to ' +
      'types a user can name; then run `npm run build && npm run api -- --update`.',
  );
  process.exit(1);
}
if (changed.length > 0 && !update) {
  console.error(
    `The public API changed: ${changed.join(', ')}.\n` +
      'If the change is intended, run `npm run build && npm run api -- --update` and commit api/.',
  );
  process.exit(1);
}
if (update)
  console.log(changed.length > 0 ? `updated ${changed.join(', ')}` : 'api/ is up to date');
