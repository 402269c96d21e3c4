import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Image,
  Modal,
  Skeleton,
  Stack,
  Text,
  Title,
  Typography,
} from '@mantine/core';
import { useState } from 'react';
import {
  eventCalendarUrl,
  eventsFeedPath,
  promoVideoEmbedUrl,
  type PublicEvent,
} from '#shared/events/events.schemas.ts';
import { messages } from '#shared/messages.ts';
import { usePublicEvents } from '#web/features/events/events.api.ts';

export function EventsPage() {
  const events = usePublicEvents();
  const [video, setVideo] = useState<PublicEvent | null>(null);

  return (
    <Container size="lg" py={{ base: 'lg', md: 40 }}>
      <Title order={1} mb="xl">
        Agenda próximos eventos CxVet
      </Title>
      {events.isPending ? (
        <Stack role="status" aria-label="Cargando eventos">
          {[0, 1].map((index) => (
            <Skeleton key={index} height={260} />
          ))}
        </Stack>
      ) : events.isError ? (
        <Alert color="red" role="alert">
          No se pudo cargar la agenda de eventos, intenta más tarde.
        </Alert>
      ) : events.data.events.length === 0 ? (
        <Text size="lg">{messages.noUpcomingEvents}</Text>
      ) : (
        <Stack gap="xl">
          {events.data.events.map((event) => (
            <EventCard key={event.id} event={event} onVideo={() => setVideo(event)} />
          ))}
          <Text size="sm">
            <Anchor href={eventsFeedPath}>Suscribirse a la agenda en tu calendario</Anchor>
          </Text>
        </Stack>
      )}
      <Modal opened={video !== null} onClose={() => setVideo(null)} title={video?.name ?? 'Video'} size="xl" centered>
        {video?.promoVideoId && (
          <div style={{ position: 'relative', aspectRatio: '16 / 9' }}>
            <iframe
              src={promoVideoEmbedUrl(video.promoVideoId)}
              title={`Video promocional: ${video.name}`}
              allow="accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture"
              allowFullScreen
              style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 }}
            />
          </div>
        )}
      </Modal>
    </Container>
  );
}

function EventCard({ event, onVideo }: { event: PublicEvent; onVideo: () => void }) {
  const titleId = `evento-${event.id}`;
  return (
    <Card withBorder radius="md" padding="lg" component="article" aria-labelledby={titleId}>
      <Group align="flex-start" gap="xl" wrap="wrap">
        {event.imageUrl && (
          <Image
            src={event.imageUrl}
            alt={`Imagen del evento ${event.name}`}
            w={{ base: '100%', sm: 320 }}
            h="auto"
            radius="md"
            loading="lazy"
            width={1090}
            height={720}
            style={{ aspectRatio: '109 / 72' }}
          />
        )}
        <Stack gap="xs" style={{ flex: '1 1 280px', minWidth: 0 }}>
          <Group gap="xs">
            <Badge variant="light" tt="none" size="lg">
              {event.displayDate}
            </Badge>
            {event.type && (
              <Badge variant="outline" color="gray.8" tt="none">
                {event.type}
              </Badge>
            )}
          </Group>
          <Title order={2} size="h3" id={titleId}>
            {event.name}
          </Title>
          {/* The server sanitises the HTML before storing and serving it. */}
          <Typography p={0}>
            <div dangerouslySetInnerHTML={{ __html: event.detailHtml }} />
          </Typography>
          <Group gap="sm" mt="sm">
            {event.pdfUrl && (
              <Button component="a" href={event.pdfUrl} target="_blank" rel="noopener">
                Ver información completa
              </Button>
            )}
            {event.programPdfUrl && (
              <Button component="a" href={event.programPdfUrl} target="_blank" rel="noopener" variant="outline">
                Ver programa
              </Button>
            )}
            {event.promoVideoId && (
              <Button variant="light" onClick={onVideo}>
                Ver video
              </Button>
            )}
            {event.startsAt && (
              <Button component="a" href={eventCalendarUrl(event.id)} download variant="subtle">
                Añadir al calendario
              </Button>
            )}
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}
