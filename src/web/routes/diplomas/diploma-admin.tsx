import { Badge, Button, Card, Container, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { countOf } from '#shared/text.ts';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { PageLoader } from '#web/components/page-loader.tsx';
import { mediaPath } from '#web/components/console/upload-client.ts';
import { useManagedDiplomas } from '#web/features/diplomas/admin/diplomas.admin.api.ts';
import { href } from '#web/paths.ts';

/** /administrar-diplomado: the diplomas this user administers (only active ones). */
export function DiplomaAdminPage() {
  const diplomas = useManagedDiplomas();
  if (diplomas.isPending) return <PageLoader />;
  if (diplomas.isError) throw diplomas.error;

  return (
    <Container size="lg" py="xl">
      <Stack>
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          Administrar diplomado
        </Title>
        {diplomas.data.length === 0 ? (
          <Text c="dimmed">No administras ningún diplomado activo.</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {diplomas.data.map((diploma) => (
              <Card key={diploma.id} withBorder padding="md" radius="md">
                {diploma.previewImage ? (
                  <Card.Section>
                    <Image src={mediaPath(diploma.previewImage)} alt="" h={160} fit="cover" />
                  </Card.Section>
                ) : null}
                <Stack gap="xs" mt="sm">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Title order={2} fz="md">
                      {diploma.title}
                    </Title>
                    <Badge variant="light">{diploma.kind}</Badge>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {countOf(diploma.userCount, 'usuario', 'usuarios')} · creado el{' '}
                    {dayjs(diploma.createdAt).format('DD/MM/YYYY')}
                  </Text>
                  <Button
                    component={Link}
                    to={href.diplomaAdminDetail(diploma.id)}
                    variant="light"
                    aria-label={`Administrar ${diploma.title}`}
                  >
                    Administrar
                  </Button>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Container>
  );
}
