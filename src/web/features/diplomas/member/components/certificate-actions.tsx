import { Anchor, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Course } from '#shared/diplomas/diplomas.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { href } from '#web/paths.ts';
import { useDownloadCertificate } from '#web/features/diplomas/member/diplomas.api.ts';

/** 'el diplomado Cirugía…', or 'el Diplomado en…' when the title already names it a diploma. */
function completedName(title: string): string {
  return /^diplomado\b/i.test(title.trim()) ? `el ${title}` : `el diplomado ${title}`;
}

/** Downloading assigns the folio once; the PDF is rendered by the server. */
export function CertificateActions({ course }: { course: Course }) {
  const download = useDownloadCertificate(course.id);
  const { showAppError } = useErrorModal();
  const certificate = course.certificate;
  return (
    <Stack gap="sm">
      <Text>Completaste {completedName(course.title)}. Descarga tu constancia.</Text>
      {certificate?.isRevoked ? (
        <Text c="red.8">Esta constancia fue revocada. Contacta a un administrador.</Text>
      ) : (
        <Button
          onClick={() => download.mutate(undefined, { onError: (error) => showAppError(error) })}
          loading={download.isPending}
        >
          Descargar constancia
        </Button>
      )}
      {certificate && (
        <Text size="sm">
          Folio {certificate.folio} ·{' '}
          <Anchor component={Link} to={href.certificateVerification(certificate.verificationCode)}>
            Verificar constancia ({certificate.verificationCode})
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}
