import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Grid,
  Group,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { MediaPlayerInstance } from '@vidstack/react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import type { ProcedureDetail } from '#shared/catalog/catalog.schemas.ts';
import { secondDeviceMessage, useHereLabel } from '#shared/viewing/viewing.rules.ts';
import { hasPremiumAccess } from '#shared/accounts/accounts.rules.ts';
import { useCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { procedureQuery, useGuideClick } from '#web/features/catalog/catalog.api.ts';
import { LockIcon } from '#web/features/catalog/components/lock-icon.tsx';
import type { ProcedureBackLink } from '#web/features/catalog/components/procedure-card.tsx';
import {
  ProcedurePlayer,
  ReplacedNotice,
  type PlayerControls,
} from '#web/features/catalog/components/procedure-player.tsx';
import { useViewingSession } from '#web/features/viewing/use-viewing-session.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { href, paths } from '#web/paths.ts';
import { NotFoundPage } from '#web/routes/not-found.tsx';

// members only: a guest's procedure page never loads the favourites and resume code
const memberTools = () => import('#web/features/watching/components/procedure-member-tools.tsx');
const ProcedureFavorite = lazy(() => memberTools().then((m) => ({ default: m.ProcedureFavorite })));
const WatchProgress = lazy(() => memberTools().then((m) => ({ default: m.WatchProgress })));
// Premium members only: the continuing-education offer and the evaluation that earns it (decision 049)
const CourseEvaluation = lazy(() =>
  import('#web/features/credits/components/course-evaluation.tsx').then((m) => ({ default: m.CourseEvaluation })),
);
// Mantine's Modal (transition, portal, focus trap) loads when the guide's notice is first asked for
const GuideNoticeModal = lazy(() =>
  import('#web/features/catalog/components/guide-notice-modal.tsx').then((m) => ({ default: m.GuideNoticeModal })),
);

export function ProcedurePage() {
  const { id = '' } = useParams();
  const procedure = useQuery(procedureQuery(id));

  if (procedure.isPending) {
    return (
      <Container size="xl" py="xl" role="status" aria-label="Cargando procedimiento">
        <Skeleton height={36} width="60%" mb="lg" />
        <Skeleton style={{ aspectRatio: '16 / 9' }} maw={860} />
      </Container>
    );
  }
  if (procedure.isError) {
    if (procedure.error instanceof ApiError && procedure.error.status === 404) return <NotFoundPage />;
    return (
      <Container size="md" py="xl">
        <Alert color="red" role="alert" title="Error">
          {procedure.error.message}
        </Alert>
      </Container>
    );
  }
  return <ProcedureView procedure={procedure.data} />;
}

function ProcedureView({ procedure }: { procedure: ProcedureDetail }) {
  const { user } = useCurrentUser();
  const viewing = useViewingSession(procedure.needsViewingToken);
  const backTo = (useLocation().state as { backTo?: ProcedureBackLink } | null)?.backTo;

  return (
    <Container size="xl" py={{ base: 'lg', md: 40 }}>
      {backTo && (
        <Anchor component={Link} to={backTo.to} size="sm" display="inline-block" mb="xs">
          ← Volver a {backTo.label}
        </Anchor>
      )}
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="xs">
        <Title order={1}>{procedure.name}</Title>
        {user && (
          <Suspense fallback={null}>
            <ProcedureFavorite procedureId={procedure.id} procedureName={procedure.name} />
          </Suspense>
        )}
      </Group>
      <Group gap="xs" mb="lg">
        <Anchor component={Link} to={href.catalogFiltered('kynd', procedure.species)} fw={600}>
          {procedure.species}
        </Anchor>
        {procedure.tags.map((tag) => (
          <Badge
            key={tag.id}
            component={Link}
            to={href.catalogFiltered('tag', tag.id)}
            variant="light"
            tt="none"
            style={{ cursor: 'pointer' }}
          >
            {tag.name}
          </Badge>
        ))}
      </Group>

      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            {!procedure.canWatchFullVideo && <DemoBanner procedure={procedure} isGuest={!user} />}
            {/* the class names the paywalled part to search engines (the page's VideoObject, page-metadata.ts) */}
            <div className={premiumClass(procedure)}>
              <VideoArea procedure={procedure} viewing={viewing} />
            </div>
            {procedure.canWatchFullVideo && hasPremiumAccess(user) && (
              <Suspense fallback={null}>
                <CourseEvaluation target={{ kind: 'procedure', id: procedure.id }} progressKey="" />
              </Suspense>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            <div className={premiumClass(procedure)}>
              <GuideCard procedure={procedure} isGuest={!user} />
            </div>
            <section aria-labelledby="descripcion">
              <Title order={2} size="h4" id="descripcion" mb="xs">
                Descripción
              </Title>
              {procedure.detail
                .split(/\r?\n/)
                .filter((line) => line.trim())
                .map((line, index) => (
                  <Text key={index} mb="sm">
                    {line}
                  </Text>
                ))}
            </section>
          </Stack>
        </Grid.Col>
      </Grid>
    </Container>
  );
}

const premiumClass = (procedure: ProcedureDetail) => (procedure.type === 'Premium' ? 'contenido-premium' : undefined);

function VideoArea({
  procedure,
  viewing,
}: {
  procedure: ProcedureDetail;
  viewing: ReturnType<typeof useViewingSession>;
}) {
  const [player, setPlayer] = useState<MediaPlayerInstance | null>(null);
  const controls = useRef<PlayerControls>(null);
  if (!procedure.videoUrl) {
    return <Text c="dimmed">Este procedimiento aún no tiene video.</Text>;
  }
  if (!procedure.needsViewingToken) {
    return (
      <ProcedurePlayer
        src={procedure.videoUrl}
        hlsSrc={procedure.hlsUrl}
        title={procedure.name}
        poster={procedure.previewUrl}
        chapters={procedure.chapters}
        captions={procedure.captions}
      />
    );
  }
  if (viewing.status === 'replaced') {
    return (
      <ReplacedNotice message={secondDeviceMessage} label={useHereLabel} onUseHere={viewing.reclaim} loading={false} />
    );
  }
  if (viewing.status === 'failed') {
    return (
      <Alert color="red" role="alert">
        No se pudo cargar el video, intenta más tarde.
        <Button variant="subtle" onClick={viewing.reclaim} ml="sm" size="compact-sm">
          Reintentar
        </Button>
      </Alert>
    );
  }
  if (viewing.status !== 'active') return <Skeleton style={{ aspectRatio: '16 / 9' }} />;
  return (
    <Stack gap="sm">
      {/* room kept for 'Continuar desde …' so the video does not move when it appears */}
      <Group mih={36}>
        <Suspense fallback={null}>
          <WatchProgress
            key={viewing.token}
            procedureId={procedure.id}
            token={viewing.token}
            player={player}
            onResume={(seconds) => controls.current?.playFrom(seconds)}
          />
        </Suspense>
      </Group>
      <ProcedurePlayer
        key={viewing.token}
        playerRef={setPlayer}
        controlsRef={controls}
        onViewingReplaced={viewing.markReplaced}
        src={`${procedure.videoUrl}?vt=${encodeURIComponent(viewing.token)}`}
        hlsSrc={procedure.hlsUrl ? `${procedure.hlsUrl}?vt=${encodeURIComponent(viewing.token)}` : null}
        title={procedure.name}
        poster={procedure.previewUrl}
        chapters={procedure.chapters}
        captions={procedure.captions}
      />
    </Stack>
  );
}

function DemoBanner({ procedure, isGuest }: { procedure: ProcedureDetail; isGuest: boolean }) {
  const text =
    isGuest && procedure.type === 'Gratis'
      ? 'Estás viendo una demostración. Crea tu cuenta básica gratuita para ver este procedimiento completo.'
      : 'Estás viendo una demostración. Con una membresía Premium puedes ver este procedimiento completo y descargar su guía en PDF.';
  return (
    <Alert color="blue" variant="light" title="Video de demostración" icon={<LockIcon size={18} />}>
      <Text size="sm" mb="xs">
        {text}
      </Text>
      <Anchor component={Link} to={isGuest ? paths.signUp : paths.profile} fw={700} c="dark">
        {isGuest ? 'Regístrate' : 'Obtener membresía Premium'}
      </Anchor>
    </Alert>
  );
}

function GuideCard({ procedure, isGuest }: { procedure: ProcedureDetail; isGuest: boolean }) {
  const [opened, modal] = useDisclosure(false);
  // mounted from the first opening on, so later closings and openings keep the Modal's transitions
  const [noticeWanted, setNoticeWanted] = useState(false);
  // a Modal mounted open does not know what had the focus: closing gives it back to the button here
  const noticeButton = useRef<HTMLButtonElement>(null);
  const closeNotice = () => {
    modal.close();
    noticeButton.current?.focus();
  };
  const guideClick = useGuideClick(procedure.id);

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="guia-pdf">
      <Title order={2} size="h4" id="guia-pdf">
        Guía en PDF
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        Descarga la guía del procedimiento para estudiarla cuando quieras.
      </Text>
      {procedure.guidePdfUrl ? (
        <Button
          component="a"
          href={procedure.guidePdfUrl}
          target="_blank"
          rel="noopener"
          download
          onClick={() => guideClick.mutate()}
        >
          Descargar guía PDF
        </Button>
      ) : (
        <Button
          ref={noticeButton}
          onClick={() => {
            setNoticeWanted(true);
            modal.open();
          }}
          leftSection={<LockIcon />}
        >
          Descargar guía PDF
        </Button>
      )}
      {noticeWanted && (
        <Suspense fallback={null}>
          <GuideNoticeModal opened={opened} onClose={closeNotice} isGuest={isGuest} />
        </Suspense>
      )}
    </Card>
  );
}
