import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A dialog whose code loads the first time it opens, then stays mounted so it closes with its transition: Mantine's
 * Modal (its transition, portal, focus trap and scroll lock, 8.5 KiB) stays off the pages where it is seldom shown.
 */
export function lazyModal<Props extends { opened: boolean }>(load: () => Promise<ComponentType<Props>>) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  function LazyModal(props: Props) {
    const [hasOpened, setHasOpened] = useState(props.opened);
    if (props.opened && !hasOpened) setHasOpened(true);
    if (!hasOpened) return null;
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return LazyModal;
}
