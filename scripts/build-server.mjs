// The server as one JavaScript file (build/server/main.js) with npm packages left outside: `npm start` runs it without transpiling.
import { build } from 'esbuild';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'build', 'server', 'main.js');

// paths next to a source file (migrations, demo assets, dist/) still resolve from that file's place in src/
const keepSourceLocation = {
  name: 'keep-source-location',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromBundle = path.relative(path.dirname(outfile), args.path).split(path.sep).join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

await build({
  entryPoints: [path.join(root, 'src', 'server', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [keepSourceLocation],
});
console.log(`Server built into ${path.relative(root, outfile)}`);
