import { Button, Container, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { LandingSlide } from '#shared/landing/landing.schemas.ts';
import { paths } from '#web/paths.ts';
import classes from './hero-carousel.module.css';

export const pitch =
  'Aprende cirugía veterinaria con videos de procedimientos quirúrgicos, guías en PDF y diplomados, desde estudiantes hasta cirujanos experimentados.';

export function JoinButton({ color }: { color: 'white' | 'blue' }) {
  return (
    <Button component={Link} to={paths.signUp} size="lg" color={color} c={color === 'white' ? 'blue.9' : undefined}>
      Únete a CxVet
    </Button>
  );
}

/** One slide's picture or video and its texts: the same in the first, still slide and in the carousel. */
export function HeroSlide(props: { slide: LandingSlide; index: number; isGuest: boolean; videoShown: boolean }) {
  const { slide, index, isGuest } = props;
  return (
    <>
      {slide.isVideo ? (
        <video
          className={classes.media}
          src={props.videoShown ? slide.mediaUrl : undefined}
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
          // the first picture is painted again when the carousel takes the still slide's place: at once, no blank frame
          decoding={index === 0 ? 'sync' : 'async'}
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
    </>
  );
}
