import { Alert, Card, Container, Loader, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { useParams } from 'react-router';
import { messages } from '#shared/messages.ts';
import { useCertificateVerification } from '#web/features/diplomas/member/diplomas.api.ts';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
}

/** /certificados/:code — anyone can check a certificate; nothing else about the member is shown. */
export function CertificateVerificationPage() {
  const { code = '' } = useParams();
  const verification = useCertificateVerification(code);
  return (
    <Container size="sm" py="xl">
      <meta name="robots" content="noindex, nofollow" />
      <title>Verificación de constancia · CxVet</title>
      <Stack gap="md">
        <Title order={1}>Verificación de constancia</Title>
        {verification.isPending && <Loader aria-label="Verificando" />}
        {verification.isError && (
          <Alert color="red" title={messages.certificateNotFound}>
            Revisa que el código esté escrito correctamente: {code}
          </Alert>
        )}
        {verification.data && (
          <Card withBorder radius="md" padding="lg">
            <Stack gap="sm">
              {verification.data.revokedAt ? (
                <Alert color="red" title="Certificado revocado">
                  Esta constancia fue revocada el{' '}
                  {dayjs(verification.data.revokedAt).locale('es').format('D [de] MMMM [de] YYYY')} y ya no es válida.
                </Alert>
              ) : (
                <Alert color="green" title={messages.certificateValid}>
                  La constancia con código {code.toUpperCase()} fue emitida por {verification.data.issuerName}.
                </Alert>
              )}
              <Field label="Nombre" value={verification.data.holderName} />
              <Field label="Diplomado" value={verification.data.diplomaTitle} />
              <Field label="Folio" value={verification.data.folio} />
              <Field
                label="Fecha de término"
                value={dayjs(verification.data.completedAt).locale('es').format('D [de] MMMM [de] YYYY')}
              />
              <Field label="Emitida por" value={verification.data.issuerName} />
            </Stack>
          </Card>
        )}
      </Stack>
    </Container>
  );
}
