// Mantine writes the theme's CSS variables in the browser at every start: MantineProvider renders
// MantineCssVariables, which runs the default resolver over every colour of the theme, merges ours
// (src/web/theme.ts), drops what Mantine's stylesheet already declares and renders the rest in a <style>
// (~1.5 KiB brotli of resolvers and colour functions on every guest page, and their work before
// the first paint). The theme does not change at run time, so the build renders that same <style> once, with
// Mantine's own code on the server side, into index.html where React rendered it (first in the body, after
// the head's stylesheets), and the browser gets a MantineCssVariables that renders nothing.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Plugin } from 'vite';

const stubId = '\0cxvet-mantine-css-variables';
const provider = /[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/]MantineProvider[\\/]MantineProvider\.mjs$/;

/** The <style> MantineProvider renders for the app's theme, as the app configures it (src/web/providers.tsx). */
export async function themeVariablesStyle(): Promise<string> {
  const { MantineProvider } = await import('@mantine/core');
  const { cssVariablesResolver, theme } = await import('../../src/web/theme.ts');
  const html = renderToStaticMarkup(
    createElement(MantineProvider, {
      theme,
      cssVariablesResolver,
      forceColorScheme: 'light',
      withGlobalClasses: false,
    }),
  );
  const style = /<style data-mantine-styles="true">[\s\S]*?<\/style>/.exec(html)?.[0];
  if (!style) throw new Error('mantine-theme-variables: MantineProvider rendered no <style data-mantine-styles>');
  return style.replace(/>\s+/, '>');
}

export function mantineThemeVariables(): Plugin {
  let style = '';
  return {
    name: 'cxvet:mantine-theme-variables',
    apply: 'build',
    enforce: 'pre',
    async buildStart() {
      style = await themeVariablesStyle();
    },
    resolveId(source, importer) {
      return source === './MantineCssVariables/MantineCssVariables.mjs' && importer && provider.test(importer)
        ? stubId
        : null;
    },
    load(id) {
      return id === stubId ? 'export function MantineCssVariables() { return null; }\n' : null;
    },
    transformIndexHtml(html) {
      const root = '<div id="root"></div>';
      if (!html.includes(root)) throw new Error(`mantine-theme-variables: index.html needs ${root}`);
      return html.replace(root, `${style}\n    ${root}`);
    },
  };
}
