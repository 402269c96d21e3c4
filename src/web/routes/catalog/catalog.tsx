import {
  Alert,
  Box,
  Button,
  Collapse,
  Container,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  useMantineTheme,
} from '@mantine/core';
import { useDebouncedCallback, useDisclosure, useMediaQuery } from '@mantine/hooks';
import { startTransition, Suspense, useCallback, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { messages } from '#shared/messages.ts';
import { useCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { ContinueWatchingRow } from '#web/features/catalog/components/continue-watching-row.ts';
import { useCatalogPage } from '#web/features/catalog/catalog.api.ts';
import { catalogViewHref, parseCatalogView, toApiQuery, type CatalogView } from '#shared/catalog/catalog-url.ts';
import { CatalogFilters } from '#web/features/catalog/components/catalog-filters.tsx';
import { CatalogPagination } from '#web/features/catalog/components/catalog-pagination.tsx';
import { ProcedureCard } from '#web/features/catalog/components/procedure-card.tsx';
import { pageCount } from '#web/features/catalog/pagination.ts';
import { NotFoundPage } from '#web/routes/not-found.tsx';
import classes from './catalog.module.css';

export function CatalogPage() {
  const params = useParams();
  const [searchParams] = useSearchParams();
  const view = useMemo(() => parseCatalogView(params, searchParams), [params, searchParams]);
  if (!view) return <NotFoundPage />;
  return <Catalog view={view} />;
}

function Catalog({ view }: { view: CatalogView }) {
  const navigate = useNavigate();
  const [filtersOpened, filtersToggle] = useDisclosure(false);
  const theme = useMantineTheme();
  const isDesktop = useMediaQuery(`(min-width: ${theme.breakpoints.md})`, window.innerWidth >= 992);
  const { user } = useCurrentUser();
  const activeCount = Object.keys(view.filters).length + (view.unwatched ? 1 : 0);
  const query = toApiQuery(view);
  const result = useCatalogPage(query);

  const go = (next: CatalogView, replace = false) => void navigate(catalogViewHref(next), { replace });
  // The first card's picture is the page's largest paint (the HTML already asked for it): the other cards' pictures
  // start once it has loaded, so on a slow connection they do not share its bandwidth.
  const [firstPictureSettled, setFirstPictureSettled] = useState(false);
  // a transition: the whole grid renders again, in slices a phone's main thread can interleave with input
  const settleFirstPicture = useCallback(() => startTransition(() => setFirstPictureSettled(true)), []);

  const [search, setSearch] = useState(view.q);
  const [shownQ, setShownQ] = useState(view.q);
  // Back/forward or a filter link changes the URL: the box follows it.
  if (shownQ !== view.q) {
    setShownQ(view.q);
    setSearch(view.q);
  }
  const submitSearch = useDebouncedCallback((text: string) => {
    if (text.trim() !== view.q) go({ ...view, q: text.trim(), page: 1 }, true);
  }, 350);

  const onPage = (page: number) => {
    go({ ...view, page });
    window.scrollTo({ top: 0 });
  };

  const data = result.data;
  const totalPages = data ? pageCount(data.total, data.pageSize) : 1;

  return (
    <Container size="xl" py={{ base: 'lg', md: 40 }}>
      <Title order={1} mb="lg">
        Catálogo de cirugías
      </Title>
      {/* only on the plain catalogue: a search or a filter asks for something else */}
      {user && view.page === 1 && !view.q && activeCount === 0 && (
        <Suspense fallback={null}>
          <ContinueWatchingRow headingLevel={2} />
        </Suspense>
      )}
      <div className={classes.layout}>
        <aside className={classes.sidebar} aria-label="Filtros del catálogo">
          {/* one copy of the filters, so their headings' ids stay unique */}
          {isDesktop ? (
            <CatalogFilters view={view} />
          ) : (
            <>
              <Button
                variant="default"
                fullWidth
                onClick={filtersToggle.toggle}
                aria-expanded={filtersOpened}
                aria-controls="filtros-catalogo"
              >
                {filtersOpened ? 'Ocultar filtros' : `Mostrar filtros${activeCount ? ` (${activeCount})` : ''}`}
              </Button>
              <Collapse expanded={filtersOpened} id="filtros-catalogo">
                <Box pt="md">
                  <CatalogFilters view={view} />
                </Box>
              </Collapse>
            </>
          )}
        </aside>

        <section aria-label="Resultados" aria-busy={result.isFetching}>
          <TextInput
            type="search"
            placeholder="Buscar en catálogo"
            aria-label="Buscar en catálogo"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              submitSearch(event.currentTarget.value);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') submitSearch.flush();
            }}
            mb="lg"
            maw={520}
          />
          {result.isPending ? (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} role="status" aria-label="Cargando cirugías">
              {Array.from({ length: 6 }, (_, index) => (
                <Stack key={index} gap="xs">
                  <Skeleton height={180} />
                  <Skeleton height={20} width="70%" />
                  <Skeleton height={14} />
                  <Skeleton height={14} />
                </Stack>
              ))}
            </SimpleGrid>
          ) : result.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messages.proceduresLoadFailed}
            </Alert>
          ) : data && data.items.length === 0 ? (
            <Text py="xl" role="status">
              No se encontraron cirugías con estos criterios.
            </Text>
          ) : (
            <>
              <Text size="sm" c="dimmed" mb="sm" role="status">
                {data?.total === 1 ? '1 cirugía' : `${data?.total ?? 0} cirugías`}
              </Text>
              <SimpleGrid
                cols={{ base: 1, sm: 2, lg: 3 }}
                spacing="lg"
                style={{ opacity: result.isPlaceholderData ? 0.6 : 1 }}
              >
                {data?.items.map((procedure, index) => (
                  <ProcedureCard
                    key={procedure.id}
                    procedure={procedure}
                    headingLevel={2}
                    eager={index < 3}
                    pictureWaits={index > 0 && !firstPictureSettled && Boolean(data.items[0]?.previewUrl)}
                    onPictureSettled={index === 0 ? settleFirstPicture : undefined}
                  />
                ))}
              </SimpleGrid>
              <CatalogPagination page={view.page} totalPages={totalPages} onChange={onPage} />
            </>
          )}
        </section>
      </div>
    </Container>
  );
}
