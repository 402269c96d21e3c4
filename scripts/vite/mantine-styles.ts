// Mantine CSS per component: each @mantine/core component brings its own stylesheet into the chunk
// that holds its code, so a guest page carries only the CSS of the components it renders.
//
// How: every component's class-name module (`components/Button/Button.module.mjs`) is given an import of the
// matching `@mantine/core/styles/Button.layer.css`. Chunks load in any order, so the cascade cannot depend on
// the order stylesheets arrive: each component's rules sit in their own cascade layer `mantine.<Name>`, and the
// page declares all those layers up front, in the order of Mantine's own styles.css. Our CSS is unlayered and
// therefore always wins over Mantine's, as it did when the whole styles.css came first.
//
// In `vite dev` Mantine is pre-bundled (no per-module transforms), so the app gets the whole layered stylesheet.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const coreDir = path.join(root, 'node_modules', '@mantine', 'core');
const stylesDir = path.join(coreDir, 'styles');

/** The import that gives the app Mantine's global styles (and, in dev, everything). */
const mantineStylesId = 'virtual:mantine-core-styles.css';
const resolvedStylesId = `\0${mantineStylesId}`;
const globalSheets = ['baseline', 'default-css-variables', 'global'];

/** Mantine's stylesheets in the order its styles.css concatenates them (dependencies first). */
function canonicalOrder(): string[] {
  const whole = readFileSync(path.join(coreDir, 'styles.css'), 'utf8');
  const names = readdirSync(stylesDir)
    .filter((file) => file.endsWith('.css') && !file.endsWith('.layer.css'))
    .map((file) => file.slice(0, -'.css'.length));
  const placed = names.map((name) => {
    const start = readFileSync(path.join(stylesDir, `${name}.css`), 'utf8')
      .trim()
      .slice(0, 400);
    const at = whole.indexOf(start);
    if (at < 0) throw new Error(`mantine-styles: ${name}.css is not part of @mantine/core/styles.css`);
    return { name, at };
  });
  return placed.sort((a, b) => a.at - b.at).map((entry) => entry.name);
}

const layerPrefix = '@layer mantine {';

/** A component's layered stylesheet with its rules moved into its own sub-layer. */
function sublayered(name: string, css: string): string {
  if (!css.startsWith(layerPrefix))
    throw new Error(`mantine-styles: ${name}.layer.css no longer starts with "${layerPrefix}"`);
  return `@layer mantine.${name} {${css.slice(layerPrefix.length)}`;
}

const componentModule = /[\\/]@mantine[\\/]core[\\/]esm[\\/].*[\\/]([A-Za-z]+)\.module\.mjs$/;
const componentSheet = /[\\/]@mantine[\\/]core[\\/]styles[\\/]([A-Za-z-]+)\.layer\.css$/;

export function mantineStyles(): Plugin {
  const order = canonicalOrder();
  const known = new Set(order);
  let serve = false;
  return {
    name: 'cxvet:mantine-styles',
    enforce: 'pre',
    configResolved(config) {
      serve = config.command === 'serve';
    },
    resolveId(source) {
      return source === mantineStylesId ? resolvedStylesId : null;
    },
    load(id) {
      if (id !== resolvedStylesId) return null;
      if (serve) return readFileSync(path.join(coreDir, 'styles.layer.css'), 'utf8');
      return globalSheets
        .map((name) => sublayered(name, readFileSync(path.join(stylesDir, `${name}.layer.css`), 'utf8')))
        .join('\n');
    },
    transform(code, id) {
      if (serve) return null;
      const sheet = componentSheet.exec(id);
      if (sheet) return { code: sublayered(sheet[1]!, code), map: null };
      const module = componentModule.exec(id);
      if (!module) return null;
      const name = module[1]!;
      if (!known.has(name)) throw new Error(`mantine-styles: no stylesheet for ${id}`);
      // imports are hoisted: appended, it leaves the module's lines (and source map) where they were
      return { code: `${code}\nimport "@mantine/core/styles/${name}.layer.css";\n`, map: null };
    },
    transformIndexHtml(html) {
      // before any stylesheet (and after the charset, which must come in the first 1024 bytes): fixes the
      // layers' order whichever chunk's CSS arrives first
      const layers = ['mantine', ...order.map((name) => `mantine.${name}`)].join(',');
      const charset = /<meta charset="UTF-8" \/>/i;
      if (!charset.test(html))
        throw new Error('mantine-styles: index.html needs <meta charset="UTF-8" /> first in <head>');
      return html.replace(charset, (meta) => `${meta}\n    <style>@layer ${layers};</style>`);
    },
  };
}
