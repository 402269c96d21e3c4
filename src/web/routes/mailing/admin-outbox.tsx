import { Accordion, Alert, Anchor, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import dayjs from 'dayjs';
import { useState, type FormEvent } from 'react';
import { messages } from '#shared/messages.ts';
import { useOutbox } from '#web/features/mailing/mailing.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { TextWithLinks } from '#web/components/console/text-with-links.tsx';

/** Links inside the rendered mail open in the whole window, as they would from a mail client. */
const mailDocument = (html: string) =>
  `<!doctype html><html lang="es"><head><meta charset="utf-8"><base target="_top"><style>body{font-family:Arial,sans-serif;color:#1a1b1e;margin:16px}</style></head><body>${html}</body></html>`;

/** /admin/correos: every mail the site kept instead of sending (no SMTP_URL), so recovery links can be followed. */
export function AdminOutboxPage() {
  const [to, setTo] = useState('');
  const [draft, setDraft] = useState('');
  const outbox = useOutbox(to);

  const onFilter = (event: FormEvent) => {
    event.preventDefault();
    setTo(draft.trim().toLowerCase());
  };

  return (
    <AdminPage title="Correos enviados">
      <Text>
        Sin un servidor de correo configurado (SMTP_URL), el sitio guarda aquí cada correo en lugar de enviarlo:
        registros, recuperación de contraseña, cambios de membresía y envíos masivos. Los enlaces funcionan como en el
        correo; un enlace para asignar una nueva contraseña es para quien no ha iniciado sesión: ábrelo en una ventana
        privada.
      </Text>
      <form onSubmit={onFilter} aria-label="Filtrar correos">
        <Group align="end" gap="sm">
          <TextInput
            label="Destinatario"
            type="email"
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            w={320}
            maw="100%"
          />
          <Button type="submit" variant="default">
            Filtrar
          </Button>
          {to && (
            <Button
              variant="subtle"
              onClick={() => {
                setDraft('');
                setTo('');
              }}
            >
              Ver todos
            </Button>
          )}
        </Group>
      </form>
      {outbox.isPending ? (
        <Loader aria-label="Cargando correos" />
      ) : outbox.isError ? (
        <Alert color="red" role="alert">
          No se pudieron cargar los correos.
        </Alert>
      ) : outbox.data.length === 0 ? (
        <Text role="status">{messages.emptyTable}</Text>
      ) : (
        <Accordion variant="separated" multiple aria-label="Correos">
          {outbox.data.map((mail) => (
            <Accordion.Item key={mail.id} value={mail.id}>
              <Accordion.Control>
                <Stack gap={0}>
                  <Text fw={600}>{mail.subject}</Text>
                  <Text size="sm" c="dimmed">
                    Para {mail.to} · {dayjs(mail.createdAt).format('D [de] MMMM [de] YYYY, HH:mm')}
                  </Text>
                </Stack>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="md">
                  <iframe
                    title={`Correo: ${mail.subject}`}
                    srcDoc={mailDocument(mail.html)}
                    sandbox="allow-top-navigation-by-user-activation allow-popups"
                    style={{
                      width: '100%',
                      height: 360,
                      border: '1px solid var(--mantine-color-gray-4)',
                      borderRadius: 4,
                      background: '#fff',
                    }}
                  />
                  <div>
                    <Text fw={600} size="sm" mb={4}>
                      Versión de texto
                    </Text>
                    <TextWithLinks text={mail.text} />
                  </div>
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
      {outbox.data && outbox.data.length > 0 && (
        <Text size="sm" c="dimmed">
          {outbox.data.length === 1
            ? 'Se muestra el correo más reciente.'
            : `Se muestran los ${outbox.data.length} correos más recientes.`}{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => void outbox.refetch()}>
            Actualizar
          </Anchor>
        </Text>
      )}
    </AdminPage>
  );
}
