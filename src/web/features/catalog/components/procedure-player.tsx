import '@vidstack/react/player/styles/default/theme.css';
import '@vidstack/react/player/styles/default/layouts/video.css';
import { Button, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { MediaPlayer, MediaProvider, Track, type MediaPlayerInstance } from '@vidstack/react';
import { DefaultVideoLayout, defaultLayoutIcons, type DefaultLayoutTranslations } from '@vidstack/react/player/layouts/default';
import { useMergedRef } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState, type Ref } from 'react';
import { formatChapterTime } from '#shared/catalog/catalog.rules.ts';
import type { CaptionTrack } from '#shared/catalog/catalog.schemas.ts';
import { buildChaptersVtt } from '../chapters-vtt.ts';
import classes from './procedure-player.module.css';

type Chapter = { name: string; timeSeconds: number };

const spanish: Partial<DefaultLayoutTranslations> = {
  Announcements: 'Anuncios',
  Accessibility: 'Accesibilidad',
  Audio: 'Audio',
  Auto: 'Automático',
  Captions: 'Subtítulos',
  Chapters: 'Secciones',
  'Closed-Captions Off': 'Subtítulos desactivados',
  'Closed-Captions On': 'Subtítulos activados',
  Default: 'Predeterminado',
  Disabled: 'Desactivado',
  Download: 'Descargar',
  'Enter Fullscreen': 'Pantalla completa',
  'Exit Fullscreen': 'Salir de pantalla completa',
  'Enter PiP': 'Imagen en imagen',
  'Exit PiP': 'Salir de imagen en imagen',
  Fullscreen: 'Pantalla completa',
  'Keyboard Animations': 'Animaciones del teclado',
  Loop: 'Repetir',
  Mute: 'Silenciar',
  Normal: 'Normal',
  Off: 'Desactivado',
  Pause: 'Pausar',
  Play: 'Reproducir',
  Playback: 'Reproducción',
  Quality: 'Calidad',
  Replay: 'Repetir',
  Reset: 'Restablecer',
  'Seek Backward': 'Retroceder',
  'Seek Forward': 'Adelantar',
  Seek: 'Buscar',
  Settings: 'Configuración',
  Speed: 'Velocidad',
  Unmute: 'Activar sonido',
  Volume: 'Volumen',
};

const mimeOf = (url: string) => (new URL(url, 'http://x').pathname.toLowerCase().endsWith('.webm') ? 'video/webm' : 'video/mp4');

/** Vidstack player with the chapters as a WebVTT track and as the 'Secciones navegables' list, and a captions menu. */
export function ProcedurePlayer(props: {
  src: string;
  title: string;
  poster?: string | null;
  chapters: Chapter[];
  captions?: CaptionTrack[];
  /** Lets the page follow and seek the player (resume positions). */
  playerRef?: Ref<MediaPlayerInstance>;
}) {
  const { src, title, poster, chapters, captions = [] } = props;
  const player = useRef<MediaPlayerInstance>(null);
  const mergedRef = useMergedRef(player, props.playerRef);
  const [duration, setDuration] = useState(0);

  const vttUrl = useMemo(() => {
    if (chapters.length === 0 || duration <= 0) return null;
    return URL.createObjectURL(new Blob([buildChaptersVtt(chapters, duration)], { type: 'text/vtt' }));
  }, [chapters, duration]);
  useEffect(() => () => {
    if (vttUrl) URL.revokeObjectURL(vttUrl);
  }, [vttUrl]);

  const seek = (seconds: number) => {
    const instance = player.current;
    if (!instance) return;
    instance.currentTime = seconds;
    void instance.play().catch(() => undefined);
  };

  return (
    <Stack gap="lg">
      <MediaPlayer
        ref={mergedRef}
        className={classes.player}
        title={title}
        src={{ src, type: mimeOf(src) }}
        poster={poster ?? undefined}
        playsInline
        crossOrigin={null}
        aspectRatio="16/9"
        load="visible"
        onDurationChange={(value) => setDuration(value)}
      >
        <MediaProvider>
          {vttUrl && <Track kind="chapters" src={vttUrl} type="vtt" lang="es" label="Secciones" default />}
          {captions.map((caption) => (
            <Track key={caption.url} kind="subtitles" src={caption.url} type="vtt" lang={caption.language} label={caption.label} />
          ))}
        </MediaProvider>
        <DefaultVideoLayout icons={defaultLayoutIcons} translations={spanish} noScrubGesture slots={{ googleCastButton: null }} />
      </MediaPlayer>
      {chapters.length > 0 && (
        <section aria-labelledby="secciones-navegables">
          <Title order={2} size="h4" id="secciones-navegables" mb="xs">
            Secciones navegables
          </Title>
          <ol className={classes.chapters}>
            {chapters.map((chapter) => (
              <li key={`${chapter.timeSeconds}-${chapter.name}`}>
                <UnstyledButton className={classes.chapter} onClick={() => seek(chapter.timeSeconds)}>
                  <Text component="span" ff="monospace" fw={700} c="blue.9">
                    {formatChapterTime(chapter.timeSeconds)}
                  </Text>
                  <Text component="span">{chapter.name}</Text>
                </UnstyledButton>
              </li>
            ))}
          </ol>
        </section>
      )}
    </Stack>
  );
}

export function ReplacedNotice(props: { message: string; label: string; onUseHere: () => void; loading: boolean }) {
  return (
    <Stack className={classes.replaced} align="center" justify="center" gap="md" role="alert" p="lg">
      <Text ta="center" fw={600} c="white">
        {props.message}
      </Text>
      <Button onClick={props.onUseHere} loading={props.loading} color="white" c="blue.9">
        {props.label}
      </Button>
    </Stack>
  );
}
