// The viewer page, bundled from TypeScript (src/view/page/main.ts and the rules it shares with
// the server in src/view/shared/) into one classic script, dist/viewer/app.js: a classic script
// (not a module) so the static site opens from file://, where browsers refuse module scripts.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/view/page/main.ts'],
  outfile: 'dist/viewer/app.js',
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2022'],
  tsconfig: 'tsconfig.page.json',
  legalComments: 'none',
  sourcemap: false,
  logLevel: 'warning',
});
