import { Checkbox, Group, Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import type {
  ClassroomCandidate,
  ClassroomCandidatesQuery,
  ClassroomMember,
} from '#shared/classrooms/classrooms.schemas.ts';
import { countOf } from '#shared/text.ts';
import { AdminDataTable, useServerTable } from '#web/components/console/admin-data-table.tsx';
import { EmailText } from '#web/components/email-text.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useClassroomCandidates, type CandidateSource } from '#web/features/classrooms/classrooms.api.ts';

/** The ticks and unticks since the list was saved: the page never holds the whole list, which can be the site. */
export type MemberEdits = { added: Map<string, ClassroomMember>; removed: Set<string> };

export const noEdits = (): MemberEdits => ({ added: new Map(), removed: new Set() });

/** Ticks (or unticks) one account; `assigned` says whether it is on the saved list. */
function toggled(edits: MemberEdits, user: ClassroomMember & { assigned: boolean }, checked: boolean): MemberEdits {
  const added = new Map(edits.added);
  const removed = new Set(edits.removed);
  const { assigned: _assigned, ...member } = user;
  if (checked) {
    removed.delete(user.id);
    if (!user.assigned) added.set(user.id, member);
  } else {
    added.delete(user.id);
    if (user.assigned) removed.add(user.id);
  }
  return { added, removed };
}

/** Imported accounts join the selection: an unticked saved member is ticked again, anyone else is added. */
export function withImported(edits: MemberEdits, users: ClassroomMember[]): MemberEdits {
  const added = new Map(edits.added);
  const removed = new Set(edits.removed);
  for (const user of users) {
    if (!removed.delete(user.id)) added.set(user.id, user);
  }
  return { added, removed };
}

/**
 * An aula's users as a server-paged table with a checkbox each: the box shows the saved list with the unsaved
 * ticks and unticks, which survive paging and searching; 'Mostrar solo seleccionados' lists the saved members
 * and, above them, the accounts ticked since.
 */
export function ClassroomMembersTable(props: {
  source: CandidateSource;
  /** Members on the saved list. */
  savedCount: number;
  edits: MemberEdits;
  onEditsChange: (edits: MemberEdits) => void;
}) {
  const { edits, onEditsChange } = props;
  const table = useServerTable<ClassroomCandidatesQuery['sort']>({ column: 'email', direction: 'asc' });
  const [onlySelected, setOnlySelected] = useState(false);
  const page = useClassroomCandidates(props.source, { ...table.query, assignedOnly: onlySelected });
  const selected = props.savedCount + edits.added.size - edits.removed.size;
  const pending = [...edits.added.values()].map((user) => ({ ...user, assigned: false }));

  const columns: DataTableColumn<ClassroomCandidate>[] = [
    {
      accessor: 'assigned',
      title: 'Seleccionado',
      sortable: true,
      render: (user) => (
        <Checkbox
          checked={edits.added.has(user.id) || (user.assigned && !edits.removed.has(user.id))}
          onChange={(event) => onEditsChange(toggled(edits, user, event.currentTarget.checked))}
          aria-label={`Seleccionar ${user.email}`}
        />
      ),
    },
    { accessor: 'name', title: 'Nombre', sortable: true },
    { accessor: 'email', title: 'Correo', sortable: true, render: (user) => <EmailText email={user.email} /> },
  ];

  if (page.isError) throw page.error;
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="md">
        <Checkbox
          label="Mostrar solo seleccionados"
          checked={onlySelected}
          onChange={(event) => {
            setOnlySelected(event.currentTarget.checked);
            table.resetPage();
          }}
        />
        <Text size="sm" aria-live="polite">
          {countOf(selected, 'seleccionado', 'seleccionados')}
        </Text>
      </Group>
      {onlySelected && pending.length > 0 ? (
        <AdminDataTable<ClassroomCandidate>
          mode="client"
          label="Usuarios por agregar"
          records={pending}
          initialSort={{ column: 'email', direction: 'asc' }}
          searchText={(user) => `${user.email}\n${user.name}`}
          columns={columns.map((column) => ({ ...column, sortable: column.accessor !== 'assigned' }))}
        />
      ) : null}
      {page.isPending ? (
        <PageLoader h="160px" />
      ) : (
        <AdminDataTable<ClassroomCandidate>
          mode="server"
          label="Usuarios del aula"
          records={page.data.items}
          total={page.data.total}
          fetching={page.isFetching}
          {...table.props}
          columns={columns}
        />
      )}
    </Stack>
  );
}
