import '@mantine/dates/styles.css';
import { Alert, Box, Group, Loader, Paper, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { useState } from 'react';
import type { Statistics } from '#shared/analytics/statistics.schemas.ts';
import { userTypes } from '#shared/accounts/accounts.rules.ts';
import { analyticsCategories, type AnalyticsCategory } from '#shared/analytics/analytics.rules.ts';
import { messages } from '#shared/messages.ts';
import { errorContent } from '#web/components/error-modal.tsx';
import { useAdminStatistics } from '#web/features/analytics/analytics.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';

const allEvents = 'Todos';

const tiles: { key: keyof Statistics['users']; label: string }[] = [
  { key: 'total', label: 'Usuarios totales' },
  { key: 'gratis', label: 'Gratis' },
  { key: 'premium', label: 'Premium' },
  { key: 'premiumAnnual', label: 'Premium anual' },
  { key: 'premiumMonthly', label: 'Premium mensual' },
  { key: 'legacy', label: 'Legacy' },
  { key: 'admin', label: 'Admin' },
];

const number = (value: number) => value.toLocaleString('es-MX');

function SummaryTiles({ users }: { users: Statistics['users'] }) {
  return (
    <SimpleGrid
      cols={{ base: 2, xs: 3, md: 4, lg: 7 }}
      spacing="sm"
      component="ul"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label="Resumen de usuarios"
    >
      {tiles.map((tile) => (
        <Paper key={tile.key} component="li" withBorder p="sm" radius="md">
          <Text size="sm" c="dark.5">
            {tile.label}
          </Text>
          <Text fw={700} fz={26} lh={1.2}>
            {number(users[tile.key])}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** A plain CSS bar: the value's share of the largest one. */
function Bar({ value, max }: { value: number; max: number }) {
  const width = max > 0 ? Math.max(2, Math.round((value / max) * 100)) : 0;
  return (
    <Box h={10} bg="gray.2" style={{ borderRadius: 4, minWidth: 60 }} aria-hidden>
      <Box h={10} w={`${width}%`} bg="blue.8" style={{ borderRadius: 4 }} />
    </Box>
  );
}

function EmptyRow({ columns }: { columns: number }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={columns}>
        <Text c="dark.5" ta="center" py="sm">
          {messages.emptyTable}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

function EventTable({
  category,
  rows,
}: {
  category: AnalyticsCategory;
  rows: Statistics['tables'][AnalyticsCategory];
}) {
  const headingId = `estadisticas-${category}`;
  const max = Math.max(0, ...rows.map((row) => row.total));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Title order={2} fz="lg" id={headingId} mb="sm" style={{ overflowWrap: 'anywhere' }}>
        {category}
      </Title>
      {rows.length === 0 ? (
        <Text c="dark.5">{messages.emptyTable}</Text>
      ) : (
        // focusable, so that keyboard users can scroll a wide table at 360 px
        <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={`Tabla ${category}`}>
          <Table striped withTableBorder aria-labelledby={headingId} miw={560}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Etiqueta</Table.Th>
                <Table.Th scope="col">Total</Table.Th>
                {userTypes.map((type) => (
                  <Table.Th key={type} scope="col">
                    {type}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.label}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.label}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm" fw={600} miw={32}>
                        {number(row.total)}
                      </Text>
                      <Box flex={1}>
                        <Bar value={row.total} max={max} />
                      </Box>
                    </Group>
                  </Table.Td>
                  {userTypes.map((type) => (
                    <Table.Td key={type}>{number(row.byUserType[type] ?? 0)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      )}
    </Paper>
  );
}

function TopCountries({ countries }: { countries: Statistics['topCountries'] }) {
  const max = Math.max(0, ...countries.map((row) => row.users));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="estadisticas-paises">
      <Title order={2} fz="lg" id="estadisticas-paises" mb="sm">
        Top 20 países por número de usuarios
      </Title>
      <Table striped withTableBorder aria-labelledby="estadisticas-paises">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">País</Table.Th>
            <Table.Th scope="col">Usuarios</Table.Th>
            <Table.Th scope="col" w="45%">
              <Text span size="sm" fw={700}>
                Proporción
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {countries.length === 0 ? <EmptyRow columns={3} /> : null}
          {countries.map((row) => (
            <Table.Tr key={row.country}>
              <Table.Td>{row.country || 'Sin país'}</Table.Td>
              <Table.Td>{number(row.users)}</Table.Td>
              <Table.Td>
                <Bar value={row.users} max={max} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

export function AdminStatisticsPage() {
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [category, setCategory] = useState<string>(allEvents);
  const chosen = category === allEvents ? undefined : (category as AnalyticsCategory);
  const statistics = useAdminStatistics({ from: from ?? undefined, to: to ?? undefined, category: chosen });
  const data = statistics.data;
  const shown = chosen ? [chosen] : analyticsCategories;

  return (
    <AdminPage title="Estadísticas generales">
      {statistics.isError ? (
        <Alert color="red" role="alert" title="Error">
          {errorContent(statistics.error).message}
        </Alert>
      ) : null}
      {data ? <SummaryTiles users={data.users} /> : null}

      <Paper withBorder p="md" component="section" aria-label="Filtro">
        <DatesProvider settings={{ locale: 'es' }}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <DatePickerInput
              label="Desde"
              valueFormat="D [de] MMMM [de] YYYY"
              clearable
              value={from}
              maxDate={to ?? undefined}
              onChange={setFrom}
            />
            <DatePickerInput
              label="Hasta"
              valueFormat="D [de] MMMM [de] YYYY"
              clearable
              value={to}
              minDate={from ?? undefined}
              onChange={setTo}
            />
            <Select
              label="Evento"
              data={[allEvents, ...analyticsCategories]}
              value={category}
              onChange={(value) => setCategory(value ?? allEvents)}
              allowDeselect={false}
            />
          </SimpleGrid>
        </DatesProvider>
      </Paper>

      {statistics.isPending ? (
        <Group justify="center" py="xl" role="status">
          <Loader />
          <Text>Cargando estadísticas…</Text>
        </Group>
      ) : null}
      {data ? (
        <Stack gap="md" aria-busy={statistics.isFetching}>
          {shown.map((name) => (
            <EventTable key={name} category={name} rows={data.tables[name]} />
          ))}
          <TopCountries countries={data.topCountries} />
        </Stack>
      ) : null}
    </AdminPage>
  );
}
