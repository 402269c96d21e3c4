import { Badge, Card, Group, Text, Title, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ProcedureCard as ProcedureCardData } from '#shared/catalog/catalog.schemas.ts';
import { catalogCardSizes, pictureSrcSet } from '#shared/media/picture-variants.ts';
import { href } from '#web/paths.ts';
import { LockIcon } from './lock-icon.tsx';
import classes from './procedure-card.module.css';

// members only: a guest's card never loads the favourites code
const FavoriteButton = lazy(() => import('#web/features/watching/favorite-button.tsx'));

type Props = {
  procedure: ProcedureCardData;
  headingLevel?: 2 | 3;
  eager?: boolean;
  /** The picture waits (an empty box of its size) until the page lets it load. */
  pictureWaits?: boolean;
  /** Called once the picture has loaded or failed. */
  onPictureSettled?: () => void;
  footer?: ReactNode;
  /** The picture's width in the page's grid, per breakpoint (cardSizes): the catalogue's by default. */
  sizes?: string;
  /** The page the card was opened from, offered as the way back on the procedure page (an aula). */
  backTo?: ProcedureBackLink;
};

/** Router state of a procedure opened from another page: '← {label}' leads back to it. */
export type ProcedureBackLink = { to: string; label: string };

/** A catalogue card: preview, name, species, tags, a clamped description, the premium lock and a member's marks. */
export function ProcedureCard(props: Props) {
  const {
    procedure,
    headingLevel = 3,
    eager = false,
    pictureWaits = false,
    onPictureSettled,
    footer,
    sizes = catalogCardSizes,
  } = props;
  const srcSet = pictureSrcSet(procedure.previewUrl);
  return (
    <Card withBorder radius="md" padding="md" className={classes.card} component="article">
      <Card.Section pos="relative">
        {procedure.previewUrl && pictureWaits ? (
          <div className={classes.pending} />
        ) : procedure.previewUrl ? (
          // a narrower copy where the card is narrow; the original stays the fallback
          <img
            src={procedure.previewUrl}
            srcSet={srcSet}
            sizes={srcSet ? sizes : undefined}
            alt={`Vista previa de ${procedure.name}`}
            width={1090}
            height={720}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            className={classes.image}
            onLoad={onPictureSettled}
            onError={onPictureSettled}
          />
        ) : (
          <div className={classes.placeholder} />
        )}
        {procedure.isLocked && (
          <Badge className={classes.lock} color="dark" variant="filled" leftSection={<LockIcon />}>
            <VisuallyHidden>Bloqueado: </VisuallyHidden>
            {procedure.type === 'Premium' ? 'Premium' : 'Con registro'}
          </Badge>
        )}
        {procedure.isWatched && (
          <Badge className={classes.watched} color="green.9" variant="filled">
            Visto
          </Badge>
        )}
        {procedure.isFavorite !== undefined && (
          <div className={classes.favorite}>
            <Suspense fallback={null}>
              <FavoriteButton
                procedureId={procedure.id}
                procedureName={procedure.name}
                isFavorite={procedure.isFavorite}
                size="md"
              />
            </Suspense>
          </div>
        )}
      </Card.Section>
      <Title order={headingLevel} size="h4" mt="md" lh={1.3}>
        <Link
          to={href.procedure(procedure.id)}
          state={props.backTo ? { backTo: props.backTo } : undefined}
          className={classes.title}
        >
          {procedure.name}
        </Link>
      </Title>
      <Text size="sm" c="dimmed" mt={4}>
        {procedure.species}
      </Text>
      {procedure.tags.length > 0 && (
        <Group gap={6} mt="xs" className={classes.tags}>
          {procedure.tags.map((tag) => (
            <Badge key={tag.id} variant="light" color="blue" size="sm" tt="none">
              {tag.name}
            </Badge>
          ))}
        </Group>
      )}
      <Text size="sm" mt="sm" lineClamp={3}>
        {procedure.detail}
      </Text>
      {footer}
    </Card>
  );
}
