// The server as JavaScript (build/server/main.js and the chunks it loads on demand) with npm packages left outside:
// `npm start` runs it without transpiling.
import { build } from 'esbuild';
import path from 'node:path';
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'build', 'server');
const outfile = path.join(outdir, 'main.js');

// paths next to a source file (migrations, demo assets, dist/) still resolve from that file's place in src/
const keepSourceLocation = {
  name: 'keep-source-location',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromBundle = path.relative(outdir, args.path).split(path.sep).join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

// chunks of an earlier build would linger beside the new ones
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: path.join(root, 'src', 'server', 'main.ts') },
  outdir,
  // a dynamic import() becomes a chunk loaded when first called, with the npm packages it imports: without
  // splitting, esbuild hoists those packages to the top of main.js and every start loads them (the AWS SDK, the PDF
  // and spreadsheet libraries, the other database's driver), costing idle memory and start time (issue #13)
  splitting: true,
  // beside main.js: the paths rewritten by keepSourceLocation are relative to this folder
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  sourcemap: true,
  // stack traces need only the mappings; the sources inside the map were parsed and held by every process (~7 MB heap)
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [keepSourceLocation],
});
console.log(`Server built into ${path.relative(root, outfile)}`);
