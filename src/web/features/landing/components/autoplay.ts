import type { EmblaCarouselType } from 'embla-carousel';
import { useEffect, useState } from 'react';

/** Advances an embla carousel every `ms` unless paused or the visitor prefers reduced motion. */
export function useAutoplay(embla: EmblaCarouselType | null, ms: number, paused: boolean) {
  useEffect(() => {
    if (!embla || paused || ms <= 0) return;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const timer = window.setInterval(() => embla.scrollNext(), ms);
    return () => window.clearInterval(timer);
  }, [embla, ms, paused]);
}

/** Pauses while the pointer is over the carousel or focus is inside it. */
export function usePauseOnInteraction() {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  return {
    paused: hovered || focused,
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
