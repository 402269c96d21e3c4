import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import type { EmblaCarouselType } from 'embla-carousel';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { LandingSlide } from '#shared/landing/landing.schemas.ts';
import { paths } from '#web/paths.ts';
import { useCarouselAutoplay } from './autoplay.ts';
import { HeroSlide, JoinButton, pitch } from './hero-slide.tsx';
import { CarouselPauseButton } from './carousel-pause-button.tsx';
import classes from './hero-carousel.module.css';

/** Spec 1 §2: with one slide or none, the default hero. */
export function DefaultHero({ isGuest }: { isGuest: boolean }) {
  return (
    <section className={classes.defaultHero} aria-labelledby="home-title">
      <Container size="md">
        <Stack align="center" gap="lg" py={{ base: 56, md: 96 }}>
          <Title id="home-title" order={1} className={classes.brand}>
            CxVet
          </Title>
          <Text size="xl">{pitch}</Text>
          <Group justify="center">
            {isGuest && <JoinButton color="white" />}
            <Button component={Link} to={paths.catalog} size="lg" variant="outline" color="white">
              Ver procedimientos
            </Button>
          </Group>
        </Stack>
      </Container>
    </section>
  );
}

// the carousel (Mantine's Carousel and embla, ~9 KiB) is not needed to show the first slide
const HeroSlides = lazy(() => import('./carousels.tsx').then((module) => ({ default: module.HeroSlides })));

/**
 * Spec 1 §2's carousel. The first slide is painted still, with the page; the carousel's code loads when the first
 * slide has been shown its time (then moves on at once), when the visitor stops the presentation (the arrows and
 * dots are there to browse by hand), or at once for visitors who prefer reduced motion, who get no autoplay. It
 * never loads while the pointer or focus is on the slide, so nothing is replaced under the visitor's focus; the
 * pause button stays the same element throughout.
 */
export function HeroCarousel(props: { slides: LandingSlide[]; slideSeconds: number; isGuest: boolean }) {
  const { slides, slideSeconds, isGuest } = props;
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const autoplay = useCarouselAutoplay(embla, slideSeconds * 1000, describeSlide);
  const { setRoot, handlers, announcement, canPlay, stopped, paused } = autoplay;
  const [live, setLive] = useState(!canPlay);
  const advanceWhenReady = useRef(false);

  useEffect(() => {
    if (live || paused) return;
    const timer = window.setTimeout(() => {
      advanceWhenReady.current = true;
      setLive(true);
    }, slideSeconds * 1000);
    return () => window.clearTimeout(timer);
  }, [live, paused, slideSeconds]);

  const { advance } = autoplay;
  useEffect(() => {
    if (!embla || !advanceWhenReady.current) return;
    advanceWhenReady.current = false;
    advance();
  }, [embla, advance]);

  const toggleStopped = () => {
    if (!stopped) setLive(true);
    autoplay.toggleStopped();
  };

  const still = (
    <div className={classes.slide} aria-roledescription="diapositiva" aria-label={`1 de ${slides.length}`} role="group">
      <HeroSlide slide={slides[0]!} index={0} isGuest={isGuest} videoShown />
    </div>
  );

  return (
    <section
      ref={setRoot}
      aria-roledescription="carrusel"
      aria-label="Presentación de CxVet"
      className={classes.root}
      {...handlers}
    >
      <Title order={1} style={visuallyHidden}>
        CxVet
      </Title>
      <div role="status" style={visuallyHidden}>
        {announcement}
      </div>
      {canPlay && (
        <CarouselPauseButton stopped={stopped} onToggle={toggleStopped} what="presentación" className={classes.pause} />
      )}
      {live ? (
        <Suspense fallback={still}>
          <HeroSlides slides={slides} isGuest={isGuest} onEmbla={setEmbla} />
        </Suspense>
      ) : (
        still
      )}
    </section>
  );
}

const describeSlide = (index: number, count: number) => `Diapositiva ${index + 1} de ${count}`;

const visuallyHidden: React.CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
};
