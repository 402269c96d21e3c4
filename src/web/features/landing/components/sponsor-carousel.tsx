import '@mantine/carousel/styles.css';
import { Carousel } from '@mantine/carousel';
import type { EmblaCarouselType } from 'embla-carousel';
import { useState } from 'react';
import { useAutoplay, usePauseOnInteraction } from './autoplay.ts';
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

/** The sponsor logos, 2.5 s per step. */
export function SponsorCarousel({ sponsors }: { sponsors: LogoLink[] }) {
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const { paused, handlers } = usePauseOnInteraction();
  useAutoplay(embla, sponsors.length > 1 ? 2500 : 0, paused);

  return (
    <div {...handlers}>
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
