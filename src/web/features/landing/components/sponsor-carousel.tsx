import type { EmblaCarouselType } from 'embla-carousel';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useCarouselAutoplay } from './autoplay.ts';
import { CarouselPauseButton } from './carousel-pause-button.tsx';
import classes from './sponsor-carousel.module.css';
import { PartnerLogo, type LogoLink } from './partner-logo.tsx';

const describeSponsor = (index: number, count: number) => `Patrocinador ${index + 1} de ${count}`;

// the carousel's code (~9 KiB) loads as the section comes near the screen
const SponsorSlides = lazy(() => import('./carousels.tsx').then((module) => ({ default: module.SponsorSlides })));

/** The sponsor logos, 2.5 s per step; shown still, in a row, until the carousel has loaded. */
export function SponsorCarousel({ sponsors }: { sponsors: LogoLink[] }) {
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const { setRoot, handlers, announcement, canPlay, stopped, toggleStopped } = useCarouselAutoplay(
    embla,
    sponsors.length > 1 ? 2500 : 0,
    describeSponsor,
  );
  const [near, setNear] = useState(false);
  const [row, setRow] = useState<HTMLElement | null>(null);

  useEffect(() => {
    if (!row || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(row);
    return () => observer.disconnect();
  }, [row, near]);

  const still = (
    <div ref={setRow} className={classes.still}>
      {sponsors.map((sponsor) => (
        <div key={sponsor.id} className={classes.slide}>
          <PartnerLogo partner={sponsor} still />
        </div>
      ))}
    </div>
  );

  return (
    <div ref={setRoot} className={classes.root} {...handlers}>
      <div role="status" className={classes.status}>
        {announcement}
      </div>
      {canPlay && (
        <CarouselPauseButton
          stopped={stopped}
          onToggle={toggleStopped}
          what="patrocinadores"
          className={classes.pause}
        />
      )}
      {near ? (
        <Suspense fallback={still}>
          <SponsorSlides sponsors={sponsors} onEmbla={setEmbla} />
        </Suspense>
      ) : (
        still
      )}
    </div>
  );
}
