import { Anchor, Badge, Button, Container, Group, Modal, Paper, Stack, Text, Title, Typography } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { countOf } from '#shared/text.ts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { ClassroomMember } from '#shared/classrooms/classrooms.schemas.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import {
  useAddDiplomaUsers,
  useDiplomaImportPreview,
  useManagedDiploma,
} from '#web/features/diplomas/admin/diplomas.admin.api.ts';
import { DiplomaUsersTable } from '#web/features/diplomas/admin/components/users-table.tsx';
import { DiplomaProgress } from '#web/features/diplomas/admin/components/diploma-progress.tsx';
import { ImportMembersModal } from '#web/features/classrooms/components/import-members-modal.tsx';
import { paths } from '#web/paths.ts';

/**
 * /administrar-diplomado/diplomado/:id: the diploma, the 'Administrar Usuarios' modal for its user list (one by
 * one, or imported from a file or a pasted list) and its members' progress.
 */
export function DiplomaAdminDetailPage() {
  const { id = '' } = useParams();
  const diploma = useManagedDiploma(id);
  const importPreview = useDiplomaImportPreview('diploma-admin', id);
  const addUsers = useAddDiplomaUsers('diploma-admin', id);
  // the import replaces the users modal while it is open, and gives it back when it closes
  const [open, setOpen] = useState<'users' | 'import' | null>(null);
  if (diploma.isPending) return <PageLoader />;
  if (diploma.isError) throw diploma.error;

  async function addImported(users: ClassroomMember[]) {
    const result = await addUsers.mutateAsync(users.map((user) => user.id));
    notifications.show({
      color: 'green',
      message: `${result.added === 1 ? 'Se agregó' : 'Se agregaron'} ${countOf(result.added, 'usuario', 'usuarios')} al diplomado.`,
    });
  }

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
          <Button onClick={() => setOpen('users')}>Administrar Usuarios</Button>
        </Group>
        <Title order={2} size="h3" mt="md">
          Progreso del diplomado
        </Title>
        <DiplomaProgress scope="diploma-admin" id={id} />
      </Stack>
      <Modal opened={open === 'users'} onClose={() => setOpen(null)} title="Administrar Usuarios" size="xl" centered>
        {open === 'users' ? (
          <Stack>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen('import')}>
                Importar usuarios
              </Button>
            </Group>
            <DiplomaUsersTable scope="diploma-admin" diplomaId={id} />
          </Stack>
        ) : null}
      </Modal>
      <ImportMembersModal
        opened={open === 'import'}
        onClose={() => setOpen('users')}
        addLabel="al diplomado"
        preview={(source) => importPreview.mutateAsync(source)}
        onAdd={addImported}
      />
    </Container>
  );
}
