import { pageShellHtml, testModeNoticeHtml, testModeRootAttribute } from '#shared/page-shell.ts';
import { PageLoader } from '#web/components/page-loader.tsx';

/**
 * The site's first route loading (the router's HydrateFallback): the header bar the page's HTML painted
 * (src/shared/page-shell.ts, our own constant markup), with the test-payments notice when the server put it there,
 * stays as it was, with the loader under it.
 */
export function StartingPage() {
  const testPayments = document.getElementById('root')?.hasAttribute(testModeRootAttribute) ?? false;
  return (
    <>
      <div dangerouslySetInnerHTML={{ __html: testPayments ? testModeNoticeHtml + pageShellHtml : pageShellHtml }} />
      <PageLoader h="60dvh" />
    </>
  );
}
