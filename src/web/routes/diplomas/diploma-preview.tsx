import {
  Alert,
  Anchor,
  AspectRatio,
  Badge,
  Button,
  Container,
  Group,
  Image,
  Loader,
  Stack,
  Text,
  Title,
  Typography,
} from '@mantine/core';
import { countOf } from '#shared/text.ts';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useReportPurchaseError, useSalesPage, useStartPurchase } from '#web/features/diplomas/member/diplomas.api.ts';
import { diplomaLink } from '#web/features/diplomas/member/components/diploma-card.tsx';
import { formatUsd } from '#web/features/diplomas/member/format.ts';
import { PesosPayment, useCardReturn } from '#web/features/diplomas/member/components/pesos-payment.tsx';
import { usePaymentsConfig } from '#web/features/payments/payments.api.ts';
import { paths } from '#web/paths.ts';

/** /mis-diplomados/diplomado-preview/:id — the diploma's preview and its purchase. */
export function DiplomaPreviewPage() {
  const { id = '' } = useParams();
  const page = useSalesPage(id);
  const start = useStartPurchase(id);
  const report = useReportPurchaseError(id);
  const config = usePaymentsConfig();
  const pesosMethods = config.data?.pesosMethods ?? [];
  const { showError } = useErrorModal();
  const [params, setParams] = useSearchParams();
  const handled = useRef(false);

  useEffect(() => {
    if (handled.current || params.get('pago') !== 'cancelado') return;
    handled.current = true;
    notifications.show({ color: 'yellow', title: 'Pago cancelado', message: 'No se realizó ningún cargo.' });
    setParams({}, { replace: true });
  }, [params, setParams]);
  useCardReturn(id);

  const buy = () =>
    start.mutate(undefined, {
      onSuccess: ({ approvalUrl }) => window.location.assign(approvalUrl),
      onError: (error) => {
        report.mutate({ message: error instanceof Error ? error.message : String(error) });
        showError({ title: messages.purchaseErrorTitle, message: messages.purchaseError });
      },
    });

  if (page.isPending) return <Loader m="xl" aria-label="Cargando diplomado" />;
  if (!page.data) {
    return (
      <Container py="xl">
        <Alert color="red" title="Diplomado no disponible">
          Este diplomado no está disponible.{' '}
          <Anchor component={Link} to={paths.myDiplomas}>
            Volver a mis diplomados
          </Anchor>
        </Alert>
      </Container>
    );
  }
  const diploma = page.data;
  return (
    <Container size="md" py="xl">
      <Stack gap="md">
        <Anchor component={Link} to={paths.myDiplomas} size="sm">
          ← Cursos y diplomados
        </Anchor>
        {diploma.previewImageUrl && (
          <AspectRatio ratio={1090 / 720}>
            <Image src={diploma.previewImageUrl} alt="" radius="md" />
          </AspectRatio>
        )}
        <Group gap="xs">
          <Badge variant="light">{diploma.isExternal ? diploma.organizationName || 'Externo' : 'CxVet'}</Badge>
          <Badge variant="outline">{countOf(diploma.videoCount, 'video', 'videos')}</Badge>
          <Badge variant="outline">{countOf(diploma.examCount, 'examen', 'exámenes')}</Badge>
        </Group>
        <Title order={1}>{diploma.title}</Title>
        <Typography>
          <div dangerouslySetInnerHTML={{ __html: diploma.descriptionHtml }} />
        </Typography>
        {diploma.previewPdfUrl && (
          <Anchor href={diploma.previewPdfUrl} target="_blank" rel="noopener">
            Descargar información del diplomado (PDF)
          </Anchor>
        )}
        {diploma.isEnrolled ? (
          <Button component={Link} to={diplomaLink(diploma)} size="md">
            Entrar al diplomado
          </Button>
        ) : diploma.costCents > 0 ? (
          <Stack gap="xs">
            <Text fw={700} size="xl">
              {formatUsd(diploma.costCents)}
            </Text>
            <Button size="md" onClick={buy} loading={start.isPending}>
              Comprar acceso
            </Button>
            {diploma.costMxnCents && pesosMethods.length > 0 ? (
              <PesosPayment diplomaId={diploma.id} costMxnCents={diploma.costMxnCents} methods={pesosMethods} />
            ) : null}
          </Stack>
        ) : (
          <Text>El acceso a este diplomado lo asigna un administrador.</Text>
        )}
      </Stack>
    </Container>
  );
}
