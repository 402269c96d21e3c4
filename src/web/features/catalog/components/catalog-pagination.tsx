import { Button, Group, Text } from '@mantine/core';
import { paginationWindow } from '../pagination.ts';

type Props = { page: number; totalPages: number; onChange: (page: number) => void };

/** Pages of the catalogue: first, previous, about two pages each side with ellipses, next, last. */
export function CatalogPagination({ page, totalPages, onChange }: Props) {
  if (totalPages <= 1) return null;
  const items = paginationWindow(page, totalPages);
  const control = (label: string, ariaLabel: string, target: number, disabled: boolean) => (
    <Button
      variant="default"
      size="compact-md"
      miw={36}
      h={36}
      aria-label={ariaLabel}
      disabled={disabled}
      onClick={() => onChange(target)}
    >
      {label}
    </Button>
  );

  return (
    <Group component="nav" aria-label="Paginación" gap={6} justify="center" mt="xl">
      {control('«', 'Primera página', 1, page === 1)}
      {control('‹', 'Página anterior', page - 1, page === 1)}
      {items.map((item) =>
        typeof item === 'number' ? (
          <Button
            key={item}
            variant={item === page ? 'filled' : 'default'}
            size="compact-md"
            miw={36}
            h={36}
            aria-label={`Página ${item}`}
            aria-current={item === page ? 'page' : undefined}
            onClick={() => item !== page && onChange(item)}
          >
            {item}
          </Button>
        ) : (
          <Text key={item} component="span" aria-hidden px={4}>
            …
          </Text>
        ),
      )}
      {control('›', 'Página siguiente', page + 1, page === totalPages)}
      {control('»', 'Última página', totalPages, page === totalPages)}
    </Group>
  );
}
