// @fastify/static serves .br/.gz siblings when the browser accepts them; it does not compress by itself.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve('dist');
const compressible = /\.(js|mjs|css|html|svg|json|txt|vtt|webmanifest)$/;

function walk(dir) {
  for (const entry of readdirSync(dir)) {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) walk(file);
    else if (compressible.test(file) && statSync(file).size > 256) {
      // small files too (the module runtime every page loads is 0.7 kB, 0.4 kB compressed), where it pays
      const content = readFileSync(file);
      const brotli = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
      const gzip = gzipSync(content, { level: 9 });
      if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
      if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
    }
  }
}

walk(dist);
console.log('Precompressed assets in dist/');
