/**
 * The site's header bar as the page's HTML paints it before the app's code has arrived: on a phone on
 * a slow connection the first paint waited for ~130 KiB of JavaScript; this bar paints with the stylesheets. The
 * server puts it in #root of every page under the site's layout (page-hints.ts), and the app shows the same markup
 * while its first route loads (router.tsx), so nothing flickers before the real header replaces it. Styles in
 * src/web/global.css, sized like SiteHeader (e2e/page-shell.spec.ts holds them to it).
 */
export const pageShellHtml =
  '<header class="page-shell"><div class="page-shell-bar"><a class="page-shell-brand" href="/" aria-label="CxVet, ir al inicio">CxVet</a></div></header>';

/** The test-payments notice's words (TestModeBanner shows them on every page while payments are simulated). */
export const testModeNoticeText = 'Modo de pruebas: los pagos son simulados';

/**
 * The test-payments notice above the bar, as TestModeBanner renders it (the same classes): while payments are
 * simulated the server puts it in the page's HTML too, or the bar would drop by the notice's height once the app
 * shows it.
 */
export const testModeNoticeHtml = `<aside class="page-shell-notice" aria-label="Aviso de pagos"><p class="page-shell-notice-text">${testModeNoticeText}</p></aside>`;

/** On #root while payments are simulated: the app's first screen (StartingPage) keeps the notice the HTML painted. */
export const testModeRootAttribute = 'data-test-payments';
