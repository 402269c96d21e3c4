// React Router 7's package exports name only its development build (dist/development), whose dev warnings
// (ENABLE_DEV_WARNINGS = true) and their texts then ship to every phone; its dist/production build differs only in
// that flag (remix-run/react-router#14102, #14753). The production bundle takes that build.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const packageDir = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const productionBuild: Record<string, string> = {
  'react-router': path.join(packageDir, 'dist', 'production', 'index.mjs'),
  'react-router/dom': path.join(packageDir, 'dist', 'production', 'dom-export.mjs'),
};

export function reactRouterProduction(): Plugin {
  return {
    name: 'cxvet:react-router-production',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      // a release that moves these files fails the build here rather than shipping the development build again
      for (const file of Object.values(productionBuild))
        if (!existsSync(file)) this.error(`react-router's production build is not at ${file}`);
    },
    resolveId(source) {
      return productionBuild[source] ?? null;
    },
  };
}
