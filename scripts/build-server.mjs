// The server as JavaScript (build/server/main.js and the chunks it loads on demand): `npm start` runs it without
// transpiling. The pure-JavaScript npm packages are bundled in: resolving and loading Fastify, zod, Drizzle,
// better-auth and their dependencies file by file from node_modules was a quarter of every start.
import { build } from 'esbuild';
import path from 'node:path';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { decode, encode } from '@jridgewell/sourcemap-codec';
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
      return {
        contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
        loader: 'ts',
      };
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
  // and spreadsheet libraries, the other database's driver), costing idle memory and start time
  splitting: true,
  // beside main.js: the paths rewritten by keepSourceLocation are relative to this folder
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // left in node_modules: native and WebAssembly packages, those that start workers or read files beside their own
  // code, and the large ones only a dynamic import loads (they stay out of the start either way)
  external: [
    '@electric-sql/pglite',
    '@node-rs/argon2',
    'pg',
    'pg-native',
    'pino',
    'thread-stream',
    'esbuild',
    'tsx',
    '@aws-sdk/*',
    'pdf-lib',
    '@pdf-lib/fontkit',
    '@expo-google-fonts/roboto',
    'qrcode',
    'exceljs',
    'nodemailer',
    'tar',
    'sanitize-html',
    'file-type',
    'sharp',
  ],
  // CommonJS packages bundled into an ES module still call require() for Node's own modules
  banner: {
    js: "import { createRequire as createRequireForBundle } from 'node:module';\nconst require = createRequireForBundle(import.meta.url);",
  },
  sourcemap: true,
  // stack traces need only the mappings; the sources inside the map were parsed and held by every process (~7 MB heap)
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [keepSourceLocation],
});

// Stack traces point into our TypeScript; the bundled packages' mappings are dropped from the maps (a line in a
// package then reads as a line of the built file, which is not minified). Node parses the maps of every module it
// loads once source maps are on (scripts/start.mjs): the packages' mappings were four fifths of main.js.map and
// about 12 MB of an idle server's memory.
for (const file of (await readdir(outdir)).filter((name) => name.endsWith('.js.map'))) {
  const mapFile = path.join(outdir, file);
  const map = JSON.parse(await readFile(mapFile, 'utf8'));
  const ours = map.sources.map((source) => !source.includes('node_modules/'));
  const lines = decode(map.mappings).map((segments) =>
    segments.filter((segment) => segment.length === 1 || ours[segment[1]]),
  );
  map.mappings = encode(lines);
  map.sources = map.sources.map((source, index) => (ours[index] ? source : ''));
  await writeFile(mapFile, JSON.stringify(map));
}
console.log(`Server built into ${path.relative(root, outfile)}`);
