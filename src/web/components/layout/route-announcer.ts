import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

const siteName = 'CxVet';

/** The heading focus was last moved to: if the page re-renders it as a new element, focus follows to the new one. */
let focusedHeading: HTMLElement | null = null;

function focusHeading(heading: HTMLElement) {
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
  focusedHeading = heading;
}

/** Focus fell to the body because the heading that held it was replaced (a page finishing its loading). */
function headingReplaced(heading: HTMLElement): boolean {
  const active = document.activeElement;
  return (
    focusedHeading !== null &&
    focusedHeading !== heading &&
    !focusedHeading.isConnected &&
    (active === null || active === document.body)
  );
}

/** 'Catálogo de cirugías · CxVet'; a console page adds 'Admin'. */
function documentTitle(heading: string | null, section?: string): string {
  const parts = [heading?.replace(/\s+/g, ' ').trim(), section, siteName].filter(Boolean);
  return [...new Set(parts)].join(' · ');
}

/**
 * Every page has one h1: it names the document (WCAG 2.4.2), and after a route change focus moves
 * to it, so screen readers announce the new page and the next Tab starts there.
 * A page may name itself differently with data-page-title on its h1.
 */
export function useRouteAnnouncer(main: RefObject<HTMLElement | null>, section?: string) {
  const { pathname } = useLocation();
  const previousPath = useRef<string | null>(null);
  const lastHeading = useRef<string | null>(null);

  useEffect(() => {
    const container = main.current;
    if (!container) return;
    // the first page load keeps focus at the top, so the skip link is the first Tab stop
    let focusPending = previousPath.current !== null && previousPath.current !== pathname;
    previousPath.current = pathname;

    const update = () => {
      const heading = container.querySelector('h1');
      const text = heading?.dataset.pageTitle ?? heading?.textContent ?? null;
      document.title = documentTitle(text, section);
      if (!heading) return;
      // the same screen with other filters (catalogue links) is not a new page: focus stays on the link
      if (focusPending && text !== lastHeading.current) {
        // a dialog opened by the new page keeps its focus
        if (!document.activeElement?.closest('[role="dialog"]')) focusHeading(heading);
      } else if (headingReplaced(heading)) focusHeading(heading);
      focusPending = false;
      lastHeading.current = text;
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(container, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['data-page-title'],
    });
    return () => observer.disconnect();
  }, [pathname, main, section]);
}

/**
 * Focus on the page's heading, as after any route change: for a closing menu dialog, which held the focus while the
 * route changed and would otherwise hand it to the document's body.
 */
export function focusPageHeading() {
  const heading = document.querySelector<HTMLElement>('#contenido h1');
  if (heading) focusHeading(heading);
}

/** Jumps past the header and navigation to the page's main content. */
export function skipToMain(event: React.MouseEvent<HTMLAnchorElement>, main: HTMLElement | null) {
  if (!main) return;
  event.preventDefault();
  main.focus({ preventScroll: true });
  main.scrollIntoView({ block: 'start' });
}
