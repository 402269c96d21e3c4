import '@mantine/carousel/styles.css';
import { Carousel } from '@mantine/carousel';
import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import type { EmblaCarouselType } from 'embla-carousel';
import { useState } from 'react';
import { Link } from 'react-router';
import type { LandingSlide } from '#shared/landing/landing.schemas.ts';
import { paths } from '#web/paths.ts';
import { useCarouselAutoplay } from './autoplay.ts';
import { CarouselPauseButton } from './carousel-pause-button.tsx';
import classes from './hero-carousel.module.css';

const pitch =
  'Aprende cirugía veterinaria con videos de procedimientos quirúrgicos, guías en PDF y diplomados, desde estudiantes hasta cirujanos experimentados.';

function JoinButton({ color }: { color: 'white' | 'blue' }) {
  return (
    <Button component={Link} to={paths.signUp} size="lg" color={color} c={color === 'white' ? 'blue.9' : undefined}>
      Únete a CxVet
    </Button>
  );
}

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

export function HeroCarousel(props: { slides: LandingSlide[]; slideSeconds: number; isGuest: boolean }) {
  const { slides, slideSeconds, isGuest } = props;
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const { setRoot, handlers, announcement, canPlay, stopped, toggleStopped } = useCarouselAutoplay(embla, slideSeconds * 1000, describeSlide);
  // Video slides load only once they are shown, so phones do not download every slide up front.
  const [shown, setShown] = useState<ReadonlySet<number>>(() => new Set([0]));
  const onSlideChange = (index: number) => setShown((previous) => (previous.has(index) ? previous : new Set(previous).add(index)));

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
      {canPlay && slides.length > 1 && (
        <CarouselPauseButton stopped={stopped} onToggle={toggleStopped} what="presentación" className={classes.pause} />
      )}
      <Carousel
        getEmblaApi={setEmbla}
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
          <Carousel.Slide key={slide.id} className={classes.slide} aria-roledescription="diapositiva" aria-label={`${index + 1} de ${slides.length}`} role="group">
            {slide.isVideo ? (
              <video
                className={classes.media}
                src={shown.has(index) ? slide.mediaUrl : undefined}
                autoPlay
                muted
                loop
                playsInline
                aria-hidden
              />
            ) : (
              <img
                className={classes.media}
                src={slide.mediaUrl}
                alt={slide.title || 'Imagen de CxVet'}
                width={1600}
                height={700}
                loading={index === 0 ? 'eager' : 'lazy'}
                fetchPriority={index === 0 ? 'high' : 'auto'}
                decoding="async"
              />
            )}
            <div className={classes.overlay} data-color={slide.textColor}>
              <Container size="md">
                <Stack align="center" gap="md">
                  {slide.title && (
                    <Text component="p" fw={800} className={classes.title}>
                      {slide.title}
                    </Text>
                  )}
                  {slide.subtitle && <Text className={classes.subtitle}>{slide.subtitle}</Text>}
                  <Group justify="center">
                    {isGuest && <JoinButton color={slide.textColor === 'Blanco' ? 'white' : 'blue'} />}
                    <Button
                      component={Link}
                      to={paths.catalog}
                      size="lg"
                      variant={slide.textColor === 'Blanco' ? 'outline' : 'filled'}
                      color={slide.textColor === 'Blanco' ? 'white' : 'dark'}
                    >
                      Ver procedimientos
                    </Button>
                  </Group>
                </Stack>
              </Container>
            </div>
          </Carousel.Slide>
        ))}
      </Carousel>
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
