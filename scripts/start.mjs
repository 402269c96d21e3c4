// `npm start`: build the web app and the server when missing or older than their sources, then run the built server.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist', 'index.html');
const builtServer = path.join(root, 'build', 'server', 'main.js');

function newestMtime(target) {
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const isStale = (built, sources) => {
  if (!existsSync(built)) return true;
  const present = sources.map((entry) => path.join(root, entry)).filter((entry) => existsSync(entry));
  return Math.max(...present.map(newestMtime)) > statSync(built).mtimeMs;
};

if (isStale(builtIndex, ['index.html', 'vite.config.ts', 'src/web', 'src/shared', 'public'])) {
  console.log('Construyendo la aplicación web…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
} else if (isStale(builtServer, ['src/server', 'src/shared', 'package.json'])) {
  execSync('node scripts/build-server.mjs', { cwd: root, stdio: 'inherit' });
}

process.setSourceMapsEnabled(true);
await import(pathToFileURL(builtServer).href);
