import { Alert, Button, Container, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { messages } from '#shared/messages.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useCatalogPage } from '#web/features/catalog/catalog.api.ts';
import { CatalogPagination } from '#web/features/catalog/components/catalog-pagination.tsx';
import { lgGridCardSizes } from '#shared/media/picture-variants.ts';
import { ProcedureCard } from '#web/features/catalog/components/procedure-card.tsx';
import { pageCount } from '#web/features/catalog/pagination.ts';
import { useMyClassroom } from '#web/features/classrooms/classrooms.api.ts';
import { longSpanishDate } from '#web/features/classrooms/format.ts';
import { href, paths } from '#web/paths.ts';

/** /mis-aulas/aula/{id}: the aula's videos as catalogue cards and its preview PDF; without access, back to /mis-aulas. */

export function MyClassroomPage() {
  const { id = '' } = useParams();
  const classroom = useMyClassroom(id);
  const [page, setPage] = useState(1);
  const videos = useCatalogPage({ classroom: id, page });

  if (classroom.isPending) return <PageLoader />;
  if (classroom.isError) return <Navigate to={paths.myClassrooms} replace />;
  const aula = classroom.data;
  const totalPages = videos.data ? pageCount(videos.data.total, videos.data.pageSize) : 1;

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1}>{aula.title}</Title>
          <Text c="dimmed">
            {aula.organizationTitle} · Disponible hasta el {longSpanishDate(aula.expiresAt)}
          </Text>
        </Stack>
        {aula.description ? <Text>{aula.description}</Text> : null}
        {aula.previewPdfUrl ? (
          <Group>
            <Button component="a" href={aula.previewPdfUrl} target="_blank" rel="noopener" variant="default">
              Ver información del aula (PDF)
            </Button>
          </Group>
        ) : null}
        <Title order={2} size="h3">
          Videos
        </Title>
        {videos.isPending ? (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} role="status" aria-label="Cargando videos">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} h={300} radius="md" />
            ))}
          </SimpleGrid>
        ) : videos.isError ? (
          <Alert color="red">{messages.proceduresLoadFailed}</Alert>
        ) : (
          <>
            <SimpleGrid
              cols={{ base: 1, sm: 2, lg: 3 }}
              spacing="lg"
              style={{ opacity: videos.isPlaceholderData ? 0.6 : 1 }}
            >
              {videos.data.items.map((procedure, index) => (
                <ProcedureCard
                  key={procedure.id}
                  procedure={procedure}
                  headingLevel={3}
                  eager={index < 3}
                  sizes={lgGridCardSizes}
                  backTo={{ to: href.myClassroom(aula.id), label: aula.title }}
                />
              ))}
            </SimpleGrid>
            <CatalogPagination page={page} totalPages={totalPages} onChange={setPage} />
          </>
        )}
      </Stack>
    </Container>
  );
}
