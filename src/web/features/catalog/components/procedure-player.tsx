import '@vidstack/react/player/styles/default/theme.css';
import '@vidstack/react/player/styles/default/layouts/video.css';
import { Alert, Button, Stack, Switch, Text, Title, UnstyledButton } from '@mantine/core';
import { isHLSProvider, isVideoProvider, MediaPlayer, MediaProvider, Track, type MediaPlayerInstance, type MediaProviderAdapter, type PlayerSrc } from '@vidstack/react';
import { DefaultVideoLayout, defaultLayoutIcons, type DefaultLayoutTranslations } from '@vidstack/react/player/layouts/default';
import { useLocalStorage, useMergedRef } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState, type Ref } from 'react';
import { formatChapterTime } from '#shared/catalog/catalog.rules.ts';
import type { CaptionTrack } from '#shared/catalog/catalog.schemas.ts';
import { buildChaptersVtt } from '../chapters-vtt.ts';
import { storageKeys } from '#web/lib/storage-keys.ts';
import { playbackRetryLabel, playbackStoppedMessage } from '#web/features/viewing/media-recovery.ts';
import { useMediaRecovery } from '#web/features/viewing/use-media-recovery.ts';
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

const mimeOf = (url: string): 'video/webm' | 'video/mp4' =>
  new URL(url, 'http://x').pathname.toLowerCase().endsWith('.webm') ? 'video/webm' : 'video/mp4';

/** 'Ahorro de datos': the lowest rendition, chosen by hand; off, hls.js picks what the connection allows. */
function applyDataSaver(player: MediaPlayerInstance | null, on: boolean) {
  const qualities = player?.qualities;
  if (!qualities || qualities.length === 0) return;
  if (!on) {
    if (!qualities.auto) qualities.autoSelect();
    return;
  }
  const lowest = qualities.toArray().reduce((low, each) => (each.height < low.height ? each : low));
  if (!lowest.selected || qualities.auto) lowest.selected = true;
}

/** Vidstack player with the chapters as a WebVTT track and as the 'Secciones navegables' list, and a captions menu. */
export function ProcedurePlayer(props: {
  src: string;
  /** The HLS master playlist (same query as src); src stays the fallback where HLS cannot play. */
  hlsSrc?: string | null;
  title: string;
  poster?: string | null;
  chapters: Chapter[];
  captions?: CaptionTrack[];
  /** Lets the page follow and seek the player (resume positions). */
  playerRef?: Ref<MediaPlayerInstance>;
  /** /media said another device took the viewing: the page shows its notice instead of retrying. */
  onViewingReplaced?: () => void;
}) {
  const { title, poster, chapters, captions = [] } = props;
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const recovery = useMediaRecovery({ media: video, onReplaced: props.onViewingReplaced });
  const src = recovery.sourceOf(props.src);
  const hlsSrc = props.hlsSrc ? recovery.sourceOf(props.hlsSrc) : null;
  const player = useRef<MediaPlayerInstance>(null);
  const mergedRef = useMergedRef(player, props.playerRef);
  const [duration, setDuration] = useState(0);
  const [dataSaver, setDataSaver] = useLocalStorage({ key: storageKeys.dataSaver, defaultValue: false, getInitialValueInEffect: false });
  const dataSaverRef = useRef(dataSaver);
  const sources = useMemo<PlayerSrc>(
    () => (hlsSrc ? [{ src: hlsSrc, type: 'application/x-mpegurl' as const }, { src, type: mimeOf(src) }] : { src, type: mimeOf(src) }),
    [hlsSrc, src],
  );

  const onProviderChange = (provider: MediaProviderAdapter | null) => {
    setVideo(isVideoProvider(provider) || isHLSProvider(provider) ? provider.video : null);
    if (!isHLSProvider(provider)) return;
    // never the CDN: hls.js comes from our own bundle, loaded only when a ladder plays
    provider.library = () => import('hls.js/light');
    // -1: the first segments come at the level the measured bandwidth allows
    provider.config = { startLevel: dataSaverRef.current ? 0 : -1 };
  };

  useEffect(() => {
    dataSaverRef.current = dataSaver;
    applyDataSaver(player.current, dataSaver);
  }, [dataSaver]);

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
        src={sources}
        onProviderChange={onProviderChange}
        onQualitiesChange={() => applyDataSaver(player.current, dataSaverRef.current)}
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
      {recovery.failed && (
        <Alert color="red" role="alert">
          {playbackStoppedMessage}
          <Button variant="subtle" onClick={recovery.retry} ml="sm" size="compact-sm">
            {playbackRetryLabel}
          </Button>
        </Alert>
      )}
      {hlsSrc && (
        <Switch
          label="Ahorro de datos"
          description="Reproduce la calidad más baja en este dispositivo para gastar menos datos móviles."
          checked={dataSaver}
          onChange={(event) => setDataSaver(event.currentTarget.checked)}
        />
      )}
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
