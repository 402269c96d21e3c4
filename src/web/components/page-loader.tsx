import { Center, Loader, VisuallyHidden } from '@mantine/core';
import classes from './page-loader.module.css';

/** Full-page placeholder while the app, a route chunk or the current user loads (`h`: under a header, less). */
export function PageLoader({ h = '100dvh' }: { h?: string }) {
  return (
    <Center h={h} role="status">
      <Loader />
      <VisuallyHidden>Cargando…</VisuallyHidden>
    </Center>
  );
}

/**
 * Dims the page while a route loads: Mantine's LoadingOverlay look (black at 20 %, 1 px blur, appearing after
 * 150 ms over 150 ms) in CSS, without the Transition machinery it brought onto every page.
 */
export function NavigationOverlay({ visible }: { visible: boolean }) {
  if (!visible) return null;
  return (
    <div className={classes.overlay}>
      <Loader className={classes.loader} />
    </div>
  );
}
