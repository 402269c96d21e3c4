import { Center, Loader, LoadingOverlay, VisuallyHidden } from '@mantine/core';

/** Full-page placeholder while the app, a route chunk or the current user loads. */
export function PageLoader() {
  return (
    <Center h="100dvh" role="status">
      <Loader />
      <VisuallyHidden>Cargando…</VisuallyHidden>
    </Center>
  );
}

export function NavigationOverlay({ visible }: { visible: boolean }) {
  return (
    <LoadingOverlay
      visible={visible}
      pos="fixed"
      zIndex={300}
      overlayProps={{ blur: 1, backgroundOpacity: 0.2 }}
      transitionProps={{ duration: 150, enterDelay: 150 }}
    />
  );
}
