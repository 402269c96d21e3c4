import { lazy, type ComponentType } from 'react';

/**
 * React's lazy() with a preload: once a route loader has preloaded it, the component renders at once, where lazy()
 * alone would suspend for a turn and paint its fallback before the content (a layout shift).
 */
export function preloadableLazy<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  let loaded: ComponentType<Props> | null = null;
  const preload = () =>
    load().then((component) => {
      loaded = component;
    });
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  function Preloadable(props: Props) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Preloadable, { preload });
}
