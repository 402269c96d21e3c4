import { ActionIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useSetFavorite } from '#web/features/watching/watching.api.ts';
import { HeartIcon } from './components/heart-icon.tsx';

type Props = { procedureId: string; procedureName: string; isFavorite: boolean; size?: 'md' | 'lg' };

/** The heart: adds or removes a favourite, showing the new state at once. */
function FavoriteButton({ procedureId, procedureName, isFavorite, size = 'lg' }: Props) {
  const setFavorite = useSetFavorite(procedureId);
  const shown = setFavorite.isPending ? (setFavorite.variables ?? isFavorite) : isFavorite;
  const label = shown ? `Quitar ${procedureName} de favoritos` : `Añadir ${procedureName} a favoritos`;
  return (
    // the browser's own tooltip: Mantine's, with its positioning library, was 27 KiB on every page of cards
    <ActionIcon
      variant="white"
      color="red.9"
      size={size}
      radius="xl"
      aria-label={label}
      aria-pressed={shown}
      title={shown ? 'Quitar de favoritos' : 'Añadir a favoritos'}
      onClick={(event) => {
        event.preventDefault();
        setFavorite.mutate(!shown, {
          onError: () =>
            notifications.show({
              color: 'red',
              title: 'Error',
              message: 'No se pudo guardar el favorito. Intenta de nuevo.',
            }),
        });
      }}
      style={{ boxShadow: 'var(--mantine-shadow-sm)' }}
    >
      <HeartIcon filled={shown} />
    </ActionIcon>
  );
}

export default FavoriteButton;
