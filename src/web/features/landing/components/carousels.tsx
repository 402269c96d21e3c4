import '@mantine/carousel/styles.css';
import { Carousel } from '@mantine/carousel';
import type { EmblaCarouselType } from 'embla-carousel';
import { useState } from 'react';
import type { LandingSlide } from '#shared/landing/landing.schemas.ts';
import { HeroSlide } from './hero-slide.tsx';
import classes from './hero-carousel.module.css';
import { PartnerLogo, type LogoLink } from './partner-logo.tsx';
import sponsorClasses from './sponsor-carousel.module.css';

// The home page's carousels themselves (Mantine's Carousel and embla), loaded once they are needed; the autoplay,
// the pause buttons and what is shown before stay with the page (hero-carousel.tsx, sponsor-carousel.tsx).

/** The presentation's slides. */
export function HeroSlides(props: {
  slides: LandingSlide[];
  isGuest: boolean;
  onEmbla: (embla: EmblaCarouselType) => void;
}) {
  const { slides, isGuest } = props;
  // Video slides load only once they are shown, so phones do not download every slide up front.
  const [shown, setShown] = useState<ReadonlySet<number>>(() => new Set([0]));
  const onSlideChange = (index: number) =>
    setShown((previous) => (previous.has(index) ? previous : new Set(previous).add(index)));

  return (
    <Carousel
      getEmblaApi={props.onEmbla}
      onSlideChange={onSlideChange}
      emblaOptions={{ loop: true }}
      withIndicators
      withKeyboardEvents
      nextControlProps={{ 'aria-label': 'Diapositiva siguiente' }}
      previousControlProps={{ 'aria-label': 'Diapositiva anterior' }}
      getIndicatorProps={(index) => ({ 'aria-label': `Ir a la diapositiva ${index + 1}` })}
      classNames={{ indicator: classes.indicator, controls: classes.controls }}
    >
      {slides.map((slide, index) => (
        <Carousel.Slide
          key={slide.id}
          className={classes.slide}
          aria-roledescription="diapositiva"
          aria-label={`${index + 1} de ${slides.length}`}
          role="group"
        >
          <HeroSlide slide={slide} index={index} isGuest={isGuest} videoShown={shown.has(index)} />
        </Carousel.Slide>
      ))}
    </Carousel>
  );
}

/** The sponsors' logos. */
export function SponsorSlides(props: { sponsors: LogoLink[]; onEmbla: (embla: EmblaCarouselType) => void }) {
  const { sponsors } = props;
  return (
    <Carousel
      getEmblaApi={props.onEmbla}
      emblaOptions={{ loop: sponsors.length > 1, align: sponsors.length < 4 ? 'center' : 'start' }}
      slideGap="md"
      withControls={sponsors.length > 1}
      nextControlProps={{ 'aria-label': 'Patrocinador siguiente' }}
      previousControlProps={{ 'aria-label': 'Patrocinador anterior' }}
      aria-label="Patrocinadores"
    >
      {sponsors.map((sponsor) => (
        <Carousel.Slide key={sponsor.id} className={sponsorClasses.slide}>
          <PartnerLogo partner={sponsor} />
        </Carousel.Slide>
      ))}
    </Carousel>
  );
}
