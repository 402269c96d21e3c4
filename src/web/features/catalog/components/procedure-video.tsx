import '@vidstack/react/player/styles/default/theme.css';
import '@vidstack/react/player/styles/default/layouts/video.css';
import {
  isHLSProvider,
  isVideoProvider,
  MediaPlayer,
  MediaProvider,
  Track,
  type MediaPlayerInstance,
  type MediaProviderAdapter,
  type PlayerSrc,
} from '@vidstack/react';
import {
  DefaultVideoLayout,
  defaultLayoutIcons,
  type DefaultLayoutTranslations,
} from '@vidstack/react/player/layouts/default';
import { useMergedRef } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState, type HTMLAttributes, type Ref } from 'react';
import type { CaptionTrack } from '#shared/catalog/catalog.schemas.ts';
import { buildChaptersVtt } from '../chapters-vtt.ts';
import { PlaybackStoppedAlert } from '#web/features/viewing/playback-stopped-alert.tsx';
import { useMediaRecovery } from '#web/features/viewing/use-media-recovery.ts';
import classes from './procedure-player.module.css';

const spanish: Partial<DefaultLayoutTranslations> = {
  Announcements: 'Anuncios',
  Accessibility: 'Accesibilidad',
  AirPlay: 'AirPlay',
  Audio: 'Audio',
  Connected: 'Conectado',
  Connecting: 'Conectando',
  Disconnected: 'Desconectado',
  'Google Cast': 'Google Cast',
  PiP: 'Imagen en imagen',
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
  // the slider's position in the video, not a search
  Seek: 'Posición del video',
  Settings: 'Configuración',
  Speed: 'Velocidad',
  Unmute: 'Activar sonido',
  Volume: 'Volumen',
};

/** A request to play: from `at` seconds when given; `focus` when the control that asked goes away. */
export type PlayRequest = { at: number | null; focus: boolean };

/** Runs `go` once the player can play its final source: an HLS source waits for hls.js to be attached. */
function whenReady(player: MediaPlayerInstance, go: () => void) {
  const ready = () => player.state.canPlay && (!isHLSProvider(player.provider) || player.provider.instance !== null);
  if (ready()) {
    go();
    return;
  }
  const stop = player.subscribe(({ canPlay }) => {
    if (!canPlay || !ready()) return;
    queueMicrotask(() => stop());
    go();
  });
}

// the first render's <video> lists the playlist as a <source>: a browser that plays HLS itself must not start on it
const idleVideo = { preload: 'none' } as HTMLAttributes<HTMLMediaElement>;

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

/**
 * The Vidstack player itself (with hls.js for a ladder), loaded only once the person asks to play: it plays
 * each `request` (the first one on mount), from its time when given, taking the focus when asked.
 */
export function ProcedureVideo(props: {
  src: string;
  hlsSrc: string | null;
  title: string;
  poster: string | null;
  chapters: { name: string; timeSeconds: number }[];
  captions: CaptionTrack[];
  dataSaver: boolean;
  request: PlayRequest;
  /** hls.js, already loaded, for a ladder; without it the player imports it when it meets one. */
  hls?: typeof import('hls.js/light').default;
  playerRef?: Ref<MediaPlayerInstance>;
  onViewingReplaced?: () => void;
}) {
  const { title, poster, chapters, captions, dataSaver, request } = props;
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const recovery = useMediaRecovery({ media: video, onReplaced: props.onViewingReplaced });
  const src = recovery.sourceOf(props.src);
  const hlsSrc = props.hlsSrc ? recovery.sourceOf(props.hlsSrc) : null;
  const player = useRef<MediaPlayerInstance>(null);
  const mergedRef = useMergedRef(player, props.playerRef);
  const [duration, setDuration] = useState(0);
  const dataSaverRef = useRef(dataSaver);
  // hls.js starts loading where the first request starts
  const startAt = useRef(request.at);
  const sources = useMemo<PlayerSrc>(
    () =>
      hlsSrc
        ? [
            { src: hlsSrc, type: 'application/x-mpegurl' as const },
            { src, type: mimeOf(src) },
          ]
        : { src, type: mimeOf(src) },
    [hlsSrc, src],
  );

  const onProviderChange = (provider: MediaProviderAdapter | null) => {
    setVideo(isVideoProvider(provider) || isHLSProvider(provider) ? provider.video : null);
    if (!isHLSProvider(provider)) return;
    // Vidstack also puts the playlist in a <source> for AirPlay; a browser that plays HLS itself (recent Chromium)
    // then fetches segments there, at its own quality, until hls.js attaches. Only Safari has AirPlay.
    if (!('WebKitPlaybackTargetAvailabilityEvent' in window)) {
      (provider as unknown as { appendSource: () => void }).appendSource = () => undefined;
    }
    // never the CDN: hls.js comes from our own bundle, loaded only when a ladder plays
    provider.library = props.hls ?? (() => import('hls.js/light'));
    // -1: the first segments come at the level the measured bandwidth allows, and from where playback starts
    provider.config = { startLevel: dataSaverRef.current ? 0 : -1, startPosition: startAt.current ?? -1 };
  };

  useEffect(() => {
    const instance = player.current;
    if (!instance) return;
    if (request.focus) instance.el?.focus();
    whenReady(instance, () => {
      if (request.at !== null) instance.currentTime = request.at;
      void instance.play().catch(() => undefined);
    });
  }, [request]);

  useEffect(() => {
    dataSaverRef.current = dataSaver;
    applyDataSaver(player.current, dataSaver);
  }, [dataSaver]);

  const vttUrl = useMemo(() => {
    if (chapters.length === 0 || duration <= 0) return null;
    return URL.createObjectURL(new Blob([buildChaptersVtt(chapters, duration)], { type: 'text/vtt' }));
  }, [chapters, duration]);
  useEffect(
    () => () => {
      if (vttUrl) URL.revokeObjectURL(vttUrl);
    },
    [vttUrl],
  );

  return (
    <>
      <MediaPlayer
        ref={mergedRef}
        className={classes.player}
        title={title}
        // Vidstack's own name is 'Video Player - {title}'
        ariaLabel={`Reproductor de video: ${title}`}
        src={sources}
        onProviderChange={onProviderChange}
        onQualitiesChange={() => applyDataSaver(player.current, dataSaverRef.current)}
        poster={poster ?? undefined}
        playsInline
        crossOrigin={null}
        aspectRatio="16/9"
        load="eager"
        onDurationChange={(value) => setDuration(value)}
      >
        <MediaProvider mediaProps={hlsSrc ? idleVideo : undefined}>
          {vttUrl && <Track kind="chapters" src={vttUrl} type="vtt" lang="es" label="Secciones" default />}
          {captions.map((caption) => (
            <Track
              key={caption.url}
              kind="subtitles"
              src={caption.url}
              type="vtt"
              lang={caption.language}
              label={caption.label}
            />
          ))}
        </MediaProvider>
        <DefaultVideoLayout
          icons={defaultLayoutIcons}
          translations={spanish}
          noScrubGesture
          slots={{ googleCastButton: null }}
        />
      </MediaPlayer>
      {recovery.failed && <PlaybackStoppedAlert onRetry={recovery.retry} />}
    </>
  );
}
