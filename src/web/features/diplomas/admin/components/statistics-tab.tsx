import '@mantine/charts/styles.css';
import { countOf } from '#shared/text.ts';
import { BarChart, DonutChart } from '@mantine/charts';
import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import {
  chartPalette,
  type DiplomaStatistics,
  type DiplomaStatisticsQuery,
  type ProgressStatus,
  type StatisticsUser,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import { messages } from '#shared/messages.ts';
import { AdminDataTable, useServerTable } from '#web/components/console/admin-data-table.tsx';
import { EmailText } from '#web/components/email-text.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useDiplomaStatistics } from '#web/features/diplomas/admin/diplomas.admin.api.ts';
import { CertificatesPanel } from './certificates-panel.tsx';

const statusLabels: Record<ProgressStatus, string> = {
  completed: 'Completado',
  inProgress: 'En progreso',
  notStarted: 'Sin iniciar',
};
const [blue, orange, teal, red] = chartPalette;
const percent = (value: number | null) => (value === null ? '—' : `${value.toFixed(2)}%`);

/** Two-part figures as a 100%-stacked bar with the same numbers in a table beside it. */
function StackedFigure(props: {
  title: string;
  rows: { name: string; yes: number; no: number }[];
  yes: string;
  no: string;
  colors: [string, string];
}) {
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {props.title}
        </Text>
        <BarChart
          h={Math.max(120, props.rows.length * 44 + 60)}
          data={props.rows}
          dataKey="name"
          type="percent"
          orientation="vertical"
          yAxisProps={{ width: 60 }}
          withLegend
          series={[
            { name: 'yes', label: props.yes, color: props.colors[0] },
            { name: 'no', label: props.no, color: props.colors[1] },
          ]}
          // the table below carries the figures for screen readers and keyboards
          barChartProps={{ accessibilityLayer: false }}
          aria-hidden
        />
        <Table withTableBorder fz="xs" aria-label={props.title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th />
              <Table.Th>{props.yes}</Table.Th>
              <Table.Th>{props.no}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.rows.map((row) => (
              <Table.Tr key={row.name}>
                <Table.Td>{row.name}</Table.Td>
                <Table.Td>{row.yes}</Table.Td>
                <Table.Td>{row.no}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

function ExamFigures({ exam }: { exam: DiplomaStatistics['exams'][number] }) {
  return (
    <Stack gap="sm">
      <Title order={3} fz="md">
        {exam.title}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <StackedFigure
          title={`${exam.title}: completados`}
          rows={[{ name: 'Alumnos', yes: exam.completed, no: exam.notCompleted }]}
          yes="Completado"
          no="No completado"
          colors={[blue, orange]}
        />
        <StackedFigure
          title={`${exam.title}: aprobados`}
          rows={[{ name: 'Alumnos', yes: exam.passed, no: exam.rejected }]}
          yes="Aprobado"
          no="Reprobado"
          colors={[teal, red]}
        />
      </SimpleGrid>
      {exam.questions.length > 0 ? (
        <StackedFigure
          title={`${exam.title}: respuestas por pregunta`}
          rows={exam.questions.map((question) => ({
            name: question.label,
            yes: question.correct,
            no: question.incorrect,
          }))}
          yes="Correctas"
          no="Incorrectas"
          colors={[teal, red]}
        />
      ) : null}
    </Stack>
  );
}

/** The scores table's columns: the member, their state and progress, then one column per exam in course order. */
function scoreColumns(exams: DiplomaStatistics['exams']): DataTableColumn<StatisticsUser>[] {
  return [
    { accessor: 'name', title: 'Nombre', sortable: true },
    { accessor: 'email', title: 'Correo', sortable: true, render: (user) => <EmailText email={user.email} /> },
    {
      accessor: 'status',
      title: 'Estado',
      sortable: true,
      render: (user) => (
        <Badge
          variant="light"
          color={user.status === 'completed' ? 'teal' : user.status === 'inProgress' ? 'blue' : 'gray'}
        >
          {statusLabels[user.status]}
        </Badge>
      ),
    },
    {
      accessor: 'progressPercent',
      title: 'Progreso',
      sortable: true,
      render: (user) => percent(user.progressPercent),
    },
    ...exams.map((exam, index): DataTableColumn<StatisticsUser> => ({
      accessor: `exam-${exam.id}`,
      title: exam.title,
      render: (user) => percent(user.scores[index] ?? null),
    })),
  ];
}

/** Tab 5, 'Estadísticas de exámenes': scores per user, the progress donut and per-exam charts. */
export function DiplomaStatisticsTab({ diplomaId }: { diplomaId: string }) {
  const table = useServerTable<DiplomaStatisticsQuery['sort']>({ column: 'name', direction: 'asc' });
  const statistics = useDiplomaStatistics(diplomaId, table.query);
  if (statistics.isPending) return <PageLoader />;
  if (statistics.isError) throw statistics.error;
  const { users, exams, progress } = statistics.data;
  const memberCount = progress.completed + progress.inProgress + progress.notStarted;
  const donut = [
    { name: 'Completado', value: progress.completed, color: teal },
    { name: 'En progreso', value: progress.inProgress, color: blue },
    { name: 'Sin iniciar', value: progress.notStarted, color: orange },
  ];

  return (
    <Stack gap="lg">
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} fz="lg">
            Calificaciones por usuario
          </Title>
          <AdminDataTable<StatisticsUser>
            mode="server"
            label="Calificaciones por usuario"
            records={users.items}
            total={users.total}
            fetching={statistics.isFetching}
            {...table.props}
            columns={scoreColumns(exams)}
          />
        </Stack>
      </Paper>

      <Paper withBorder p="md">
        <Stack>
          <Title order={2} fz="lg">
            Progreso de los alumnos
          </Title>
          <Group align="center" gap="xl" wrap="wrap">
            <DonutChart
              data={donut}
              withLabelsLine={false}
              withTooltip
              size={180}
              thickness={28}
              chartLabel={countOf(memberCount, 'alumno', 'alumnos')}
              pieChartProps={{ accessibilityLayer: false }}
              pieProps={{ rootTabIndex: -1 }}
              aria-hidden
            />
            <Stack gap={4} aria-label="Progreso de los alumnos">
              {donut.map((slice) => (
                <Text key={slice.name} size="sm">
                  {slice.name}: <strong>{slice.value}</strong>
                </Text>
              ))}
            </Stack>
          </Group>
        </Stack>
      </Paper>

      <Paper withBorder p="md">
        <Stack gap="lg">
          <Title order={2} fz="lg">
            Exámenes
          </Title>
          {exams.length === 0 ? (
            <Text c="dimmed">{messages.emptyTable}</Text>
          ) : (
            exams.map((exam) => <ExamFigures key={exam.id} exam={exam} />)
          )}
        </Stack>
      </Paper>

      <CertificatesPanel diplomaId={diplomaId} />
    </Stack>
  );
}
