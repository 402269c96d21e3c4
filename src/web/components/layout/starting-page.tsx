import { pageShellHtml } from '#shared/page-shell.ts';
import { PageLoader } from '#web/components/page-loader.tsx';

/**
 * The site's first route loading (the router's HydrateFallback): the header bar the page's HTML painted
 * (src/shared/page-shell.ts, our own constant markup) stays as it was, with the loader under it.
 */
export function StartingPage() {
  return (
    <>
      <div dangerouslySetInnerHTML={{ __html: pageShellHtml }} />
      <PageLoader h="60dvh" />
    </>
  );
}
