// dayjs in Spanish without loading it on every page: main.tsx used to import dayjs and its 'es'
// locale for the whole app. Now each `import 'dayjs'` (ours and @mantine/dates') resolves to
// src/web/lib/dayjs-es.ts, which sets the locale once and hands on the same dayjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const wrapper = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'src',
  'web',
  'lib',
  'dayjs-es.ts',
);
const insideDayjs = /[\\/]node_modules[\\/]dayjs[\\/]/;

export function dayjsSpanish(): Plugin {
  return {
    name: 'cxvet:dayjs-es',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'dayjs' || !importer || importer === wrapper || insideDayjs.test(importer)) return null;
      return wrapper;
    },
  };
}
