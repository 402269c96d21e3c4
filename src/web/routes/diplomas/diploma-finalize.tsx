import { Button, Center, Container, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { messages } from '#shared/messages.ts';
import {
  useConfirmPurchase,
  useEnrollment,
  useReportPurchaseError,
} from '#web/features/diplomas/member/diplomas.api.ts';
import { href } from '#web/paths.ts';

/**
 * /mis-diplomados/finalize/:id — back from the provider: the server verifies the order and adds the
 * member; this page only waits ('Procesando Pago') until the server says so.
 */
export function DiplomaFinalizePage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const orderId = params.get('token');
  const navigate = useNavigate();
  const confirm = useConfirmPurchase(id);
  const report = useReportPurchaseError(id);
  const [failed, setFailed] = useState(false);
  const enrollment = useEnrollment(id, !failed);
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current || !orderId) return;
    sent.current = true;
    confirm.mutate(orderId, {
      onError: (error) => {
        report.mutate({ message: error instanceof Error ? error.message : String(error), data: { orderId } });
        setFailed(true);
      },
    });
  }, [orderId, confirm, report]);

  const enrolled = enrollment.data?.isEnrolled === true;
  const noOrder = !orderId && enrollment.data?.isEnrolled === false;
  const course = href.myDiploma(id);

  return (
    <Container size="sm" py="xl">
      <Modal
        opened={!enrolled && !failed && !noOrder}
        onClose={() => {}}
        withCloseButton={false}
        centered
        title={messages.purchaseProcessing}
      >
        <Center>
          <Loader aria-label={messages.purchaseProcessing} />
        </Center>
      </Modal>
      <Modal opened={enrolled} onClose={() => void navigate(course)} centered title="Compra exitosa">
        <Stack>
          <Text>{messages.purchaseSuccess}</Text>
          <Button onClick={() => void navigate(course)}>Ir al diplomado</Button>
        </Stack>
      </Modal>
      <Modal
        opened={!enrolled && (failed || noOrder)}
        onClose={() => void navigate(href.diplomaPreview(id))}
        centered
        title={messages.purchaseErrorTitle}
      >
        <Stack>
          <Text>{messages.purchaseError}</Text>
          <Button onClick={() => void navigate(href.diplomaPreview(id))}>Volver</Button>
        </Stack>
      </Modal>
      {/* the page's heading and tab title follow the state the modals show */}
      <Title order={1} size="h3">
        {enrolled ? 'Compra exitosa' : failed || noOrder ? messages.purchaseErrorTitle : messages.purchaseProcessing}
      </Title>
    </Container>
  );
}
