// The public API report: one file per package entry under api/, written by API Extractor from the
// built declarations (dist/). `node scripts/api-report.mjs` checks that the reports match the
// code (npm test runs it); `--update` rewrites them after an intended change of the public surface.
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const update = process.argv.includes('--update');
const ENTRIES = {
  switchboard: 'dist/index.d.ts',
  testing: 'dist/testing.d.ts',
  realtime: 'dist/entries/realtime.d.ts',
  redis: 'dist/entries/redis.d.ts',
  import: 'dist/entries/import.d.ts',
  serve: 'dist/entries/serve.d.ts',
  handlers: 'dist/entries/handlers.d.ts',
  transform: 'dist/entries/transform.d.ts',
  mcp: 'dist/entries/mcp.d.ts',
  symphony: 'dist/entries/symphony.d.ts',
  ai: 'dist/entries/ai.d.ts',
  'openai-agents': 'dist/entries/openai-agents.d.ts',
  livekit: 'dist/entries/livekit.d.ts',
};

const temp = mkdtempSync(join(tmpdir(), 'switchboard-api-'));
let changed = [];
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
        messages: {
          extractorMessageReporting: { default: { logLevel: 'none' } },
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
  for (const { name, config } of configs) {
    const result = Extractor.invoke(config, {
      localBuild: update,
      compilerState,
      typescriptCompilerFolder: join(root, 'node_modules', 'typescript'),
    });
    if (result.apiReportChanged) changed.push(`api/${name}.api.md`);
    if (result.errorCount > 0) changed.push(`${name}: ${result.errorCount} error(s)`);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
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
