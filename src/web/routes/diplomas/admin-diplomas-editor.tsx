import { Anchor, Badge, Button, Group, Stack, Tabs, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PageLoader } from '#web/components/page-loader.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { newRecordId } from '#web/components/console/form-errors.ts';
import {
  useAddDiplomaUsers,
  useAdminDiploma,
  useDiplomaImportPreview,
} from '#web/features/diplomas/admin/diplomas.admin.api.ts';
import { DiplomaProgress } from '#web/features/diplomas/admin/components/diploma-progress.tsx';
import { ImportMembersModal } from '#web/features/classrooms/components/import-members-modal.tsx';
import { countOf } from '#shared/text.ts';
import { DiplomaGeneralForm } from '#web/features/diplomas/admin/components/general-form.tsx';
import { DiplomaVideosTab } from '#web/features/diplomas/admin/components/videos-tab.tsx';
import { DiplomaUsersTable } from '#web/features/diplomas/admin/components/users-table.tsx';
import { DiplomaExamsTab } from '#web/features/diplomas/admin/components/exams-tab.tsx';
import { href } from '#web/paths.ts';
import { CreditOfferForm } from '#web/features/credits/components/credit-offer-form.tsx';
import { CreditsAdminPanel } from '#web/features/credits/components/credits-admin-panel.tsx';

// the charts library loads only when the statistics tab opens
const DiplomaStatisticsTab = lazy(() =>
  import('#web/features/diplomas/admin/components/statistics-tab.tsx').then((m) => ({
    default: m.DiplomaStatisticsTab,
  })),
);

const tabs = ['general', 'videos', 'usuarios', 'examenes', 'estadisticas', 'progreso', 'creditos'] as const;
type Tab = (typeof tabs)[number];

/** /admin/diplomados/crear-diplomado: the general information first; the other tabs follow once it is saved. */
export function AdminDiplomaCreatePage() {
  const [id] = useState(newRecordId);
  return (
    <AdminPage title="Crear diplomado">
      <Tabs value="general">
        <Tabs.List>
          <Tabs.Tab value="general">Información general</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general" pt="md">
          <DiplomaGeneralForm id={id} />
        </Tabs.Panel>
      </Tabs>
    </AdminPage>
  );
}

/** /admin/diplomados/diplomado/:id: the tabs of the editor. */
export function AdminDiplomaEditPage() {
  const { id = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const requested = search.get('tab') as Tab | null;
  const tab: Tab = requested && tabs.includes(requested) ? requested : 'general';
  const diploma = useAdminDiploma(id);

  if (diploma.isPending) return <PageLoader />;
  if (diploma.isError) throw diploma.error;

  return (
    <AdminPage
      title={`Editar diplomado: ${diploma.data.title}`}
      actions={
        <Group gap="sm">
          <Badge color={diploma.data.isActive ? 'teal' : 'gray'} variant="light">
            {diploma.data.isActive ? 'Activo' : 'Inactivo'}
          </Badge>
          <Anchor href={href.adminDiplomaPreview(id)} target="_blank" rel="noopener" size="sm">
            Vista previa
          </Anchor>
        </Group>
      }
    >
      <Tabs
        value={tab}
        onChange={(value) => setSearch({ tab: value ?? 'general' }, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="general">Información general</Tabs.Tab>
          <Tabs.Tab value="videos">Videos</Tabs.Tab>
          <Tabs.Tab value="usuarios">Usuarios</Tabs.Tab>
          <Tabs.Tab value="examenes">Exámenes</Tabs.Tab>
          <Tabs.Tab value="estadisticas">Estadísticas</Tabs.Tab>
          <Tabs.Tab value="progreso">Progreso</Tabs.Tab>
          <Tabs.Tab value="creditos">Educación continua</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general" pt="md">
          <DiplomaGeneralForm id={id} diploma={diploma.data} />
        </Tabs.Panel>
        <Tabs.Panel value="videos" pt="md">
          <DiplomaVideosTab diplomaId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="usuarios" pt="md">
          <Group justify="space-between" align="start" mb="sm" wrap="wrap">
            <Text size="sm" c="dimmed">
              Solo usuarios Premium, Legacy o Admin. Al asignar a un usuario se registra la fecha en que inicia el
              diplomado.
            </Text>
            <AdminDiplomaImport diplomaId={id} />
          </Group>
          <DiplomaUsersTable scope="admin" diplomaId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="examenes" pt="md">
          <DiplomaExamsTab diplomaId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="estadisticas" pt="md">
          <Suspense fallback={<PageLoader />}>
            <DiplomaStatisticsTab diplomaId={id} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="progreso" pt="md">
          <DiplomaProgress scope="admin" id={id} />
        </Tabs.Panel>
        <Tabs.Panel value="creditos" pt="md">
          <Stack>
            <CreditOfferForm target={{ kind: 'diploma', id }} />
            <CreditsAdminPanel target={{ kind: 'diploma', id }} />
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </AdminPage>
  );
}

/** 'Importar usuarios' in the console's users tab: the aula's import, with the Admin's detailed reasons. */
function AdminDiplomaImport({ diplomaId }: { diplomaId: string }) {
  const [opened, setOpened] = useState(false);
  const preview = useDiplomaImportPreview('admin', diplomaId);
  const add = useAddDiplomaUsers('admin', diplomaId);
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Importar usuarios
      </Button>
      <ImportMembersModal
        opened={opened}
        onClose={() => setOpened(false)}
        addLabel="al diplomado"
        preview={(source) => preview.mutateAsync(source)}
        onAdd={async (users) => {
          const result = await add.mutateAsync(users.map((user) => user.id));
          notifications.show({
            color: 'green',
            message: `${result.added === 1 ? 'Se agregó' : 'Se agregaron'} ${countOf(result.added, 'usuario', 'usuarios')} al diplomado.`,
          });
        }}
      />
    </>
  );
}
