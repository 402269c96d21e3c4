import '@mantine/carousel/styles.css';
import { Carousel } from '@mantine/carousel';
import type { EmblaCarouselType } from 'embla-carousel';
import { useState } from 'react';
import { useCarouselAutoplay } from './autoplay.ts';
import { CarouselPauseButton } from './carousel-pause-button.tsx';
import classes from './sponsor-carousel.module.css';

export type LogoLink = { id: string; title: string; logoUrl: string; link: string | null };

export function PartnerLogo({ partner }: { partner: LogoLink }) {
  const image = (
    <img src={partner.logoUrl} alt={partner.title} width={300} height={150} loading="lazy" decoding="async" className={classes.logo} />
  );
  if (!partner.link) return <div className={classes.logoLink}>{image}</div>;
  return (
    <a href={partner.link} target="_blank" rel="noopener noreferrer" className={classes.logoLink} title={`${partner.title} (se abre en una pestaña nueva)`}>
      {image}
    </a>
  );
}

const describeSponsor = (index: number, count: number) => `Patrocinador ${index + 1} de ${count}`;

/** The sponsor logos, 2.5 s per step. */
export function SponsorCarousel({ sponsors }: { sponsors: LogoLink[] }) {
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const { setRoot, handlers, announcement, canPlay, stopped, toggleStopped } = useCarouselAutoplay(embla, sponsors.length > 1 ? 2500 : 0, describeSponsor);

  return (
    <div ref={setRoot} className={classes.root} {...handlers}>
      <div role="status" className={classes.status}>
        {announcement}
      </div>
      {canPlay && (
        <CarouselPauseButton stopped={stopped} onToggle={toggleStopped} what="patrocinadores" className={classes.pause} />
      )}
      <Carousel
        getEmblaApi={setEmbla}
        emblaOptions={{ loop: sponsors.length > 1, align: sponsors.length < 4 ? 'center' : 'start' }}
        slideGap="md"
        withControls={sponsors.length > 1}
        nextControlProps={{ 'aria-label': 'Patrocinador siguiente' }}
        previousControlProps={{ 'aria-label': 'Patrocinador anterior' }}
        aria-label="Patrocinadores"
      >
        {sponsors.map((sponsor) => (
          <Carousel.Slide key={sponsor.id} className={classes.slide}>
            <PartnerLogo partner={sponsor} />
          </Carousel.Slide>
        ))}
      </Carousel>
    </div>
  );
}
