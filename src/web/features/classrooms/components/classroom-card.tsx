import { Badge, Button, Card, Group, Image, Stack, Text, Title } from '@mantine/core';
import { countOf } from '#shared/text.ts';
import { Link } from 'react-router';
import type { MyClassroom } from '#shared/classrooms/classrooms.schemas.ts';
import { lgGridCardSizes, pictureSrcSet } from '#shared/media/picture-variants.ts';
import { href } from '#web/paths.ts';
import { longSpanishDate } from '../format.ts';

/** A card of My Aulas: preview, title, organization, expiry and the way in. */
export function ClassroomCard({ classroom }: { classroom: MyClassroom }) {
  return (
    <Card withBorder radius="md" padding="md" component="article" h="100%">
      <Card.Section>
        {classroom.previewImageUrl ? (
          <Image
            src={classroom.previewImageUrl}
            srcSet={pictureSrcSet(classroom.previewImageUrl)}
            sizes={lgGridCardSizes}
            alt={`Vista previa de ${classroom.title}`}
            h={180}
            fit="cover"
            loading="lazy"
          />
        ) : null}
      </Card.Section>
      <Stack gap={6} mt="md" style={{ flex: 1 }}>
        <Title order={2} size="h4" lh={1.3}>
          {classroom.title}
        </Title>
        <Group gap={6}>
          <Badge variant="light" tt="none">
            {classroom.organizationTitle}
          </Badge>
          <Badge variant="light" color="gray" c="dark.7" tt="none">
            {countOf(classroom.videoCount, 'video', 'videos')}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          Disponible hasta el {longSpanishDate(classroom.expiresAt)}
        </Text>
        {classroom.description ? (
          <Text size="sm" lineClamp={3}>
            {classroom.description}
          </Text>
        ) : null}
        {/* at the foot of every card, so the buttons of a row line up */}
        <Button
          component={Link}
          to={href.myClassroom(classroom.id)}
          mt="auto"
          aria-label={`Entrar a ${classroom.title}`}
        >
          Entrar
        </Button>
      </Stack>
    </Card>
  );
}
