import { Alert, Anchor, Badge, Button, Group, Paper, Radio, Stack, Text, Title, Typography } from '@mantine/core';
import { useRef } from 'react';
import { useParams } from 'react-router';
import { parseChapterTime } from '#shared/catalog/catalog.rules.ts';
import type { AdminDiplomaVideo, AdminExam, DiplomaPreview } from '#shared/diplomas/diplomas.admin.schemas.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { mediaPath } from '#web/components/console/upload-client.ts';
import { useDiplomaPreview } from '#web/features/diplomas/admin/diplomas.admin.api.ts';

function OwnVideo({ video }: { video: AdminDiplomaVideo }) {
  const player = useRef<HTMLVideoElement>(null);
  return (
    <Stack gap="xs">
      {video.video ? (
        <video
          ref={player}
          src={mediaPath(video.video)}
          controls
          preload="metadata"
          style={{ width: '100%', maxHeight: 420, background: '#000' }}
          aria-label={`Video: ${video.title}`}
        />
      ) : null}
      {video.chapters.length > 0 ? (
        <Group gap="xs" aria-label="Secciones navegables">
          {video.chapters.map((chapter) => (
            <Button
              key={`${chapter.name}-${chapter.time}`}
              size="compact-xs"
              variant="light"
              onClick={() => {
                if (player.current) {
                  player.current.currentTime = parseChapterTime(chapter.time) ?? 0;
                  void player.current.play().catch(() => {});
                }
              }}
            >
              {chapter.time} · {chapter.name}
            </Button>
          ))}
        </Group>
      ) : null}
      {[...video.pdfs, ...video.images].length > 0 ? (
        <Group gap="md">
          {[...video.pdfs, ...video.images].map((file) => (
            <Anchor key={file.file} href={mediaPath(file.file)} download size="sm">
              Descargar: {file.title}
            </Anchor>
          ))}
        </Group>
      ) : null}
    </Stack>
  );
}

function ExamReadOnly({ exam }: { exam: AdminExam }) {
  return (
    <Stack gap="sm">
      {exam.questions.map((question, index) => (
        <Radio.Group
          key={index}
          label={`${index + 1}. ${question.question}`}
          value={String(question.correctAnswer)}
          readOnly
        >
          <Stack gap={4} mt={4}>
            {question.answers.map((answer, answerIndex) => (
              <Radio
                key={answerIndex}
                value={String(answerIndex)}
                label={answerIndex === question.correctAnswer ? `${answer} (correcta)` : answer}
                disabled
              />
            ))}
          </Stack>
        </Radio.Group>
      ))}
    </Stack>
  );
}

function lockText(kind: DiplomaPreview['kind']): string {
  return kind === 'External'
    ? 'Bloqueado: se habilita al completar el elemento anterior.'
    : 'Bloqueado: este elemento está inactivo.';
}

/** /admin/diplomados/diplomado-vista-previa/:id: the ordered sequence, read-only, with the locking rule. */
export function AdminDiplomaPreviewPage() {
  const { id = '' } = useParams();
  const preview = useDiplomaPreview(id);
  if (preview.isPending) return <PageLoader />;
  if (preview.isError) throw preview.error;
  const diploma = preview.data;

  return (
    <AdminPage title={`Vista previa: ${diploma.title}`}>
      <Paper withBorder p="md">
        <Typography>
          <div dangerouslySetInnerHTML={{ __html: diploma.descriptionHtml }} />
        </Typography>
      </Paper>
      <Alert variant="light" color="blue" title="Regla de bloqueo">
        {diploma.kind === 'External'
          ? 'Diplomado externo: cada elemento se habilita solo cuando el anterior está completado. La vista previa usa tu propio avance.'
          : 'Diplomado CxVet: todos los elementos activos están habilitados; los exámenes se aprueban con 80% o más.'}
      </Alert>
      {diploma.items.length === 0 ? <Text c="dimmed">Este diplomado aún no tiene videos.</Text> : null}
      <Stack component="ol" gap="md" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {diploma.items.map((item, index) => {
          const title = item.type === 'video' ? item.video.title : item.exam.title;
          return (
            <Paper
              component="li"
              key={`${item.type}-${item.type === 'video' ? item.video.id : item.exam.id}`}
              withBorder
              p="md"
              opacity={item.locked ? 0.75 : 1}
            >
              <Stack gap="sm">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Title order={2} fz="md">
                    {index + 1}. {title}
                  </Title>
                  <Group gap={6}>
                    <Badge variant="light">{item.type === 'video' ? 'Video' : 'Examen'}</Badge>
                    {item.completed ? <Badge color="teal">Completado</Badge> : null}
                    {item.locked ? <Badge color="gray">Bloqueado</Badge> : null}
                  </Group>
                </Group>
                {item.locked ? (
                  <Text size="sm" c="dimmed">
                    {lockText(diploma.kind)}
                  </Text>
                ) : item.type === 'video' ? (
                  item.video.kind === 'own' ? (
                    <OwnVideo video={item.video} />
                  ) : item.video.guidePdf ? (
                    <Anchor href={mediaPath(item.video.guidePdf)} target="_blank" rel="noopener" size="sm">
                      Ver guía PDF del procedimiento
                    </Anchor>
                  ) : (
                    <Text size="sm" c="dimmed">
                      Sin guía PDF.
                    </Text>
                  )
                ) : (
                  <ExamReadOnly exam={item.exam} />
                )}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </AdminPage>
  );
}
