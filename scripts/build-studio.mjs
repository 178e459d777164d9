// Builds the studio's page (studio-ui/) into dist/studio/ui/: one bundled script (preact
// included), its stylesheet and index.html. Run by `npm run build`, so `npm ci` and `npm pack`
// ship the assets; the studio serves them from the package, never from a CDN.
import { copyFileSync, mkdirSync } from 'node:fs';
import { build } from 'esbuild';

const out = 'dist/studio/ui';
mkdirSync(out, { recursive: true });
await build({
  entryPoints: ['studio-ui/main.tsx'],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outfile: `${out}/app.js`,
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync('studio-ui/style.css', `${out}/app.css`);
copyFileSync('studio-ui/index.html', `${out}/index.html`);
