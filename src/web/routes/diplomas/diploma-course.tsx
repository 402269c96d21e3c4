import {
  Accordion,
  Anchor,
  Badge,
  Card,
  Container,
  Group,
  Loader,
  Progress,
  Stack,
  Text,
  Title,
  Typography,
} from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link, Navigate, useMatch, useParams } from 'react-router';
import type { CourseItem } from '#shared/diplomas/diplomas.schemas.ts';
import { formatProgress } from '#shared/diplomas/diplomas.rules.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useCourse } from '#web/features/diplomas/member/diplomas.api.ts';
import { CertificateActions } from '#web/features/diplomas/member/components/certificate-actions.tsx';
import { lazyModal } from '#web/components/lazy-modal.tsx';
import { LoadErrorAlert } from '#web/components/load-error-alert.tsx';
import { useViewingSession } from '#web/features/viewing/use-viewing-session.ts';
import { href, paths } from '#web/paths.ts';

// an item's exam or video loads when its panel is opened: the course paints its list without them
const ExamPanel = lazy(() =>
  import('#web/features/diplomas/member/components/exam-panel.tsx').then((m) => ({ default: m.ExamPanel })),
);
const VideoItem = lazy(() =>
  import('#web/features/diplomas/member/components/video-item.tsx').then((m) => ({ default: m.VideoItem })),
);
// the credit's card, below the list, loads after the course has painted, as on a procedure's page
const CourseEvaluation = lazy(() =>
  import('#web/features/credits/components/course-evaluation.tsx').then((m) => ({ default: m.CourseEvaluation })),
);
// Mantine's Modal loads when the dialog first opens, at 100 %
const CertificateModal = lazyModal(() =>
  import('#web/features/diplomas/member/components/certificate-modal.tsx').then((m) => m.CertificateModal),
);

const examBadge = {
  notStarted: { label: 'Sin iniciar', color: 'gray' },
  inProgress: { label: 'En progreso', color: 'yellow' },
  passed: { label: 'Aprobado', color: 'green' },
  failed: { label: 'No aprobado', color: 'red' },
} as const;

/** '2. Examen: Repaso', or '2. Examen final' when the title already says it is an exam. */
function itemHeading(index: number, item: CourseItem): string {
  const prefix = item.type === 'exam' && !/^examen\b/i.test(item.title.trim()) ? 'Examen: ' : '';
  return `${index + 1}. ${prefix}${item.title}`;
}

/** /mis-diplomados/diplomado/:id (External) and /mis-diplomados/diplomado-CxVet/:id: the course. */
export function DiplomaCoursePage() {
  const { id = '' } = useParams();
  const onCxVetRoute = useMatch(paths.myCxVetDiploma) !== null;
  const course = useCourse(id);
  const [dismissed, setDismissed] = useState(false);
  const complete = (course.data?.progressPercent ?? 0) >= 100;
  // own video files count watched time only from the device holding the account's viewing token
  const viewing = useViewingSession(
    course.data?.items.some((item) => item.type === 'video' && item.enabled && item.videoUrl !== null) ?? false,
  );

  if (course.isPending) return <Loader m="xl" aria-label="Cargando diplomado" />;
  if (course.error instanceof ApiError && course.error.status === 403)
    return <Navigate to={href.diplomaPreview(id)} replace />;
  if (course.error instanceof ApiError && course.error.status === 404)
    return <Navigate to={paths.myDiplomas} replace />;
  if (!course.data) {
    return (
      <Container py="xl">
        <LoadErrorAlert>No se pudo cargar el diplomado. Intenta de nuevo.</LoadErrorAlert>
      </Container>
    );
  }
  const data = course.data;
  if (data.isExternal === onCxVetRoute)
    return <Navigate to={data.isExternal ? href.myDiploma(id) : href.myCxVetDiploma(id)} replace />;

  return (
    <Container size="md" py="xl">
      <Stack gap="md">
        <Anchor component={Link} to={paths.myDiplomas} size="sm">
          ← Cursos y diplomados
        </Anchor>
        <Title order={1}>{data.title}</Title>
        <Typography>
          <div dangerouslySetInnerHTML={{ __html: data.descriptionHtml }} />
        </Typography>
        <Stack gap={4}>
          <Group justify="space-between">
            <Text fw={600}>Avance</Text>
            <Text fw={700} data-testid="diploma-progress">
              {formatProgress(data.progressPercent)}
            </Text>
          </Group>
          <Progress
            value={data.progressPercent}
            color={complete ? 'green' : undefined}
            aria-label="Avance del diplomado"
          />
          {!data.isExternal && (
            <Text size="xs" c="dimmed">
              El avance es la proporción de exámenes aprobados.
            </Text>
          )}
        </Stack>
        {complete && (
          <Card withBorder radius="md" padding="md">
            <CertificateActions course={data} />
          </Card>
        )}
        <Accordion variant="separated" chevronPosition="right" keepMounted={false}>
          {data.items.map((item, index) => (
            <Accordion.Item key={item.id} value={item.id}>
              {/* the name is the visible text, status included, so what is said matches what is seen */}
              <Accordion.Control disabled={!item.enabled}>
                <Group justify="space-between" gap="xs">
                  <Text fw={600} size="sm" style={{ flex: '1 1 12rem' }}>
                    {itemHeading(index, item)}
                  </Text>
                  {!item.enabled ? (
                    <Badge color="gray" variant="light">
                      Bloqueado
                    </Badge>
                  ) : item.type === 'exam' ? (
                    <Badge color={examBadge[item.status].color} variant="light">
                      {examBadge[item.status].label}
                    </Badge>
                  ) : item.completed ? (
                    <Badge color="green" variant="light">
                      Completado
                    </Badge>
                  ) : item.completedBy === 'watching' ? (
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {item.watchedPercent} % visto
                    </Text>
                  ) : null}
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Suspense fallback={<Loader size="sm" aria-label="Cargando" />}>
                  {item.enabled && item.type === 'video' && (
                    <VideoItem diplomaId={id} video={item} viewingToken={viewing.token} />
                  )}
                  {item.enabled && item.type === 'exam' && (
                    <ExamPanel diplomaId={id} examId={item.id} isExternal={data.isExternal} />
                  )}
                </Suspense>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
        {data.isExternal && (
          <Text size="xs" c="dimmed">
            Cada elemento se habilita al completar el anterior.
          </Text>
        )}
        <Suspense fallback={null}>
          <CourseEvaluation
            target={{ kind: 'diploma', id }}
            progressKey={`${data.progressPercent}:${data.items.map((item) => (item.completed ? 1 : 0)).join('')}`}
          />
        </Suspense>
      </Stack>
      {/* the certificate modal opens when progress reaches 100% and the certificate is not downloaded yet */}
      <CertificateModal
        course={data}
        opened={complete && !data.certificate && !dismissed}
        onClose={() => setDismissed(true)}
      />
    </Container>
  );
}
