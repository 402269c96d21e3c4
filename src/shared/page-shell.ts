/**
 * The site's header bar as the page's HTML paints it before the app's code has arrived (issue #13): on a phone on
 * a slow connection the first paint waited for ~130 KiB of JavaScript; this bar paints with the stylesheets. The
 * server puts it in #root of every page under the site's layout (page-hints.ts), and the app shows the same markup
 * while its first route loads (router.tsx), so nothing flickers before the real header replaces it. Styles in
 * src/web/global.css, sized like SiteHeader (e2e/page-shell.spec.ts holds them to it).
 */
export const pageShellHtml =
  '<header class="page-shell"><div class="page-shell-bar"><a class="page-shell-brand" href="/" aria-label="CxVet, ir al inicio">CxVet</a></div></header>';
