import { AspectRatio, Badge, Button, Card, Group, Image, Progress, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { MemberDiplomaCard } from '#shared/diplomas/diplomas.schemas.ts';
import { formatProgress } from '#shared/diplomas/diplomas.rules.ts';
import { breakpointsEm, cardSizes, pictureSrcSet } from '#shared/media/picture-variants.ts';
import { href } from '#web/paths.ts';
import { formatUsd, plainText } from '../format.ts';

/** Where a card leads: the course for its members, else the preview and purchase page (spec 3 §2). */
export function diplomaLink(diploma: Pick<MemberDiplomaCard, 'id' | 'isExternal' | 'isEnrolled'>): string {
  if (!diploma.isEnrolled) return href.diplomaPreview(diploma.id);
  return diploma.isExternal ? href.myDiploma(diploma.id) : href.myCxVetDiploma(diploma.id);
}

// My Diplomas' grid (my-diplomas.tsx): Container lg, one, two and three columns, the default md gap
const sizes = cardSizes({
  containerPx: 1140,
  columns: { 0: 1, [breakpointsEm.sm]: 2, [breakpointsEm.md]: 3 },
  gapPx: 16,
});

/** `first`: the grid's first card, whose picture is the page's largest paint, is asked for before the others. */
export function DiplomaCard({ diploma, first = false }: { diploma: MemberDiplomaCard; first?: boolean }) {
  return (
    <Card withBorder radius="md" padding="md" component="article">
      <Card.Section>
        <AspectRatio ratio={1090 / 720}>
          {diploma.previewImageUrl ? (
            <Image
              src={diploma.previewImageUrl}
              srcSet={pictureSrcSet(diploma.previewImageUrl)}
              sizes={sizes}
              alt=""
              fit="cover"
              fetchPriority={first ? 'high' : 'auto'}
            />
          ) : (
            <div style={{ background: 'var(--mantine-color-blue-1)' }} />
          )}
        </AspectRatio>
      </Card.Section>
      <Stack gap="xs" mt="sm">
        <Group gap="xs">
          <Badge variant="light">{diploma.isExternal ? diploma.organizationName || 'Externo' : 'CxVet'}</Badge>
          {!diploma.isEnrolled && diploma.costCents > 0 && (
            <Badge variant="outline">{formatUsd(diploma.costCents)}</Badge>
          )}
        </Group>
        <Title order={2} size="h4">
          {diploma.title}
        </Title>
        <Text size="sm" c="dimmed" lineClamp={3}>
          {plainText(diploma.descriptionHtml)}
        </Text>
        {diploma.isEnrolled && diploma.progressPercent !== null && (
          <Stack gap={4}>
            <Progress value={diploma.progressPercent} aria-label={`Avance del diplomado ${diploma.title}`} />
            <Text size="xs">Avance: {formatProgress(diploma.progressPercent)}</Text>
          </Stack>
        )}
        <Button component={Link} to={diplomaLink(diploma)} variant={diploma.isEnrolled ? 'filled' : 'light'}>
          {diploma.isEnrolled ? 'Entrar al diplomado' : 'Ver diplomado'}
        </Button>
      </Stack>
    </Card>
  );
}
