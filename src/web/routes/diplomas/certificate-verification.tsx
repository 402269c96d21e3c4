import { Alert, Anchor, Card, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { useParams } from 'react-router';
import { messages } from '#shared/messages.ts';
import type { CertificateVerification } from '#shared/diplomas/diplomas.schemas.ts';
import { linkedInCertificationUrl } from '#shared/diplomas/linkedin.ts';
import {
  credentialJsonUrl,
  useCertificateVerification,
  useCredentialCheck,
} from '#web/features/diplomas/member/diplomas.api.ts';

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

/** The signed credential: our server's check, the JSON to take to any verifier, and LinkedIn's form. */
function DigitalCredential({ code, certificate }: { code: string; certificate: CertificateVerification }) {
  const check = useCredentialCheck(code, true);
  if (check.isError) return null;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Credencial digital (Open Badges 3.0)
      </Title>
      {check.isPending ? (
        <Loader size="sm" aria-label="Comprobando la firma" />
      ) : (
        <Text c={check.data.valid ? 'green.9' : 'red.9'} fw={600}>
          {check.data.message}
        </Text>
      )}
      <Text size="sm">
        El archivo JSON lleva la firma de {certificate.issuerName} y se verifica en cualquier verificador de Open Badges
        3.0, sin depender de este sitio.
      </Text>
      <Group gap="md">
        <Anchor href={credentialJsonUrl(code)} download="credential.json">
          Descargar credencial (JSON)
        </Anchor>
        {!certificate.revokedAt && (
          <Anchor
            href={linkedInCertificationUrl({
              name: certificate.diplomaTitle,
              organizationName: certificate.issuerName,
              issuedAt: certificate.issuedAt,
              certUrl: window.location.origin + window.location.pathname,
              certId: code.toUpperCase(),
            })}
            target="_blank"
            rel="noopener noreferrer"
          >
            Añadir a LinkedIn
          </Anchor>
        )}
      </Group>
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
                <Alert color="red" title="Constancia revocada">
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
              <DigitalCredential code={code} certificate={verification.data} />
            </Stack>
          </Card>
        )}
      </Stack>
    </Container>
  );
}
