import { Anchor, Badge, Button, Container, Group, Modal, Paper, Stack, Text, Title, Typography } from '@mantine/core';
import { countOf } from '#shared/text.ts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useManagedDiploma } from '#web/features/diplomas/admin/diplomas.admin.api.ts';
import { DiplomaUsersTable } from '#web/features/diplomas/admin/components/users-table.tsx';
import { paths } from '#web/paths.ts';

/** /administrar-diplomado/diplomado/:id: the diploma, with the 'Administrar Usuarios' modal for its user list. */
export function DiplomaAdminDetailPage() {
  const { id = '' } = useParams();
  const diploma = useManagedDiploma(id);
  const [managing, setManaging] = useState(false);
  if (diploma.isPending) return <PageLoader />;
  if (diploma.isError) throw diploma.error;

  return (
    <Container size="lg" py="xl">
      <Stack>
        <Anchor component={Link} to={paths.diplomaAdmin} size="sm">
          ← Administrar diplomado
        </Anchor>
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {diploma.data.title}
          </Title>
          <Badge variant="light">{diploma.data.kind}</Badge>
        </Group>
        <Paper withBorder p="md">
          <Typography>
            <div dangerouslySetInnerHTML={{ __html: diploma.data.descriptionHtml }} />
          </Typography>
        </Paper>
        <Group justify="space-between" wrap="wrap">
          <Text>{countOf(diploma.data.userCount, 'usuario inscrito', 'usuarios inscritos')}</Text>
          <Button onClick={() => setManaging(true)}>Administrar Usuarios</Button>
        </Group>
      </Stack>
      <Modal opened={managing} onClose={() => setManaging(false)} title="Administrar Usuarios" size="xl" centered>
        {managing ? <DiplomaUsersTable scope="diploma-admin" diplomaId={id} /> : null}
      </Modal>
    </Container>
  );
}
