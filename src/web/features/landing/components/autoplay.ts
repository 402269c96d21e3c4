import type { EmblaCarouselType } from 'embla-carousel';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * `describe` must be stable (defined outside the component).
 * Autoplay for an embla carousel that people can stop (WCAG 2.2.2): it pauses while the pointer
 * is over it or focus is inside, stops for good with the pause button, and never runs for visitors
 * who prefer reduced motion. Only the changes a person makes are announced, in Spanish.
 */
export function useCarouselAutoplay(
  embla: EmblaCarouselType | null,
  ms: number,
  describe: (index: number, count: number) => string,
) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const automatic = useRef(false);
  const [root, setRoot] = useState<HTMLElement | null>(null);
  const reducedMotion = typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const canPlay = ms > 0 && !reducedMotion;
  const paused = hovered || focused || stopped;

  /** One automatic step (not announced). */
  const advance = useCallback(() => {
    if (!embla) return;
    automatic.current = true;
    embla.scrollNext();
  }, [embla]);

  useEffect(() => {
    if (!embla || paused || !canPlay) return;
    const timer = window.setInterval(advance, ms);
    return () => window.clearInterval(timer);
  }, [embla, ms, paused, canPlay, advance]);

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => {
      if (automatic.current) automatic.current = false;
      else setAnnouncement(describe(embla.selectedScrollSnap(), embla.scrollSnapList().length));
    };
    embla.on('select', onSelect);
    return () => {
      embla.off('select', onSelect);
    };
  }, [embla, describe]);

  // Mantine's carousel speaks English ('Slide N of M' on every advance): silence it, name it in Spanish.
  useEffect(() => {
    if (!root) return;
    for (const status of root.querySelectorAll('[role="status"][aria-live="polite"]')) {
      status.removeAttribute('role');
      status.setAttribute('aria-live', 'off');
      status.setAttribute('aria-hidden', 'true');
    }
    root.querySelector('[aria-roledescription="carousel"]')?.setAttribute('aria-roledescription', 'carrusel');
    root.querySelector('[role="tablist"]')?.setAttribute('aria-label', 'Diapositivas');
  }, [embla, root]);

  return {
    /** The element around the carousel (a callback ref). */
    setRoot,
    canPlay,
    /** Stopped, or the pointer or focus is on it: nothing moves on its own. */
    paused: paused || !canPlay,
    advance,
    stopped,
    toggleStopped: () => setStopped((value) => !value),
    announcement,
    handlers: {
      onMouseEnter: () => setHovered(true),
      onMouseLeave: () => setHovered(false),
      onFocus: () => setFocused(true),
      onBlur: (event: React.FocusEvent<HTMLElement>) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      },
    },
  };
}
