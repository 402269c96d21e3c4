import { Alert, NavLink, Skeleton, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { Link } from 'react-router';
import { procedureTypes, species } from '#shared/catalog/catalog.rules.ts';
import type { CatalogFilterKind } from '#shared/catalog/catalog.schemas.ts';
import { messages } from '#shared/messages.ts';
import { useCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { useCatalogFilters } from '#web/features/catalog/catalog.api.ts';
import {
  catalogViewHref,
  isActiveFilter,
  withFilter,
  withUnwatched,
  type CatalogView,
} from '#shared/catalog/catalog-url.ts';

type Option = { label: string; value: string | null };

function FilterGroup(props: { title: string; kind: CatalogFilterKind; options: Option[]; view: CatalogView }) {
  const { title, kind, options, view } = props;
  const headingId = `filtro-${useId()}`;
  return (
    <nav aria-labelledby={headingId}>
      <Text id={headingId} component="h2" fw={700} size="sm" tt="uppercase" c="gray.8" mb={4}>
        {title}
      </Text>
      <Stack gap={2}>
        {options.map((option) => {
          const active = isActiveFilter(view, kind, option.value);
          const to = catalogViewHref(withFilter(view, kind, option.value));
          return (
            <NavLink
              key={option.value ?? 'all'}
              component={Link}
              to={to}
              label={option.label}
              active={active}
              aria-current={active ? 'page' : undefined}
              variant="light"
              py={6}
            />
          );
        })}
      </Stack>
    </nav>
  );
}

/** 'No vistos', offered to signed-in members only; it combines with the other filters. */
function WatchedGroup({ view }: { view: CatalogView }) {
  const headingId = `filtro-${useId()}`;
  const options = [
    { label: 'Todos', unwatched: false },
    { label: 'No vistos', unwatched: true },
  ];
  return (
    <nav aria-labelledby={headingId}>
      <Text id={headingId} component="h2" fw={700} size="sm" tt="uppercase" c="gray.8" mb={4}>
        Mis videos
      </Text>
      <Stack gap={2}>
        {options.map((option) => {
          const active = (view.unwatched === true) === option.unwatched;
          return (
            <NavLink
              key={option.label}
              component={Link}
              to={catalogViewHref(withUnwatched(view, option.unwatched))}
              label={option.label}
              active={active}
              aria-current={active ? 'page' : undefined}
              variant="light"
              py={6}
            />
          );
        })}
      </Stack>
    </nav>
  );
}

/** The catalogue's filter sidebar: aulas, Tipo, Especie and Etiquetas, each with its "all" entry. */
export function CatalogFilters({ view }: { view: CatalogView }) {
  const filters = useCatalogFilters();
  const classrooms = filters.data?.classrooms ?? [];
  const { user } = useCurrentUser();

  return (
    <Stack gap="lg">
      {user && <WatchedGroup view={view} />}
      {classrooms.length > 0 && (
        <FilterGroup
          title="Aulas virtuales"
          kind="aula"
          view={view}
          options={[{ label: 'Todos', value: null }, ...classrooms.map((c) => ({ label: c.title, value: c.id }))]}
        />
      )}
      <FilterGroup
        title="Tipo"
        kind="type"
        view={view}
        options={[...procedureTypes.map((value) => ({ label: value, value })), { label: 'Todos', value: null }]}
      />
      <FilterGroup
        title="Especie"
        kind="kynd"
        view={view}
        options={[...species.map((value) => ({ label: value, value })), { label: 'Todas', value: null }]}
      />
      {filters.isPending ? (
        <Stack gap={6} aria-hidden>
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} height={28} />
          ))}
        </Stack>
      ) : filters.isError ? (
        <Alert color="red" variant="light" role="alert">
          {messages.tagsLoadFailed}
        </Alert>
      ) : (
        <FilterGroup
          title="Etiquetas"
          kind="tag"
          view={view}
          options={[
            ...(filters.data?.tags ?? []).map((tag) => ({ label: tag.name, value: tag.id })),
            { label: 'Todas', value: null },
          ]}
        />
      )}
    </Stack>
  );
}
