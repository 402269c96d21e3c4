import { Button, Group, Modal, Text } from '@mantine/core';
import { longDate } from '../membership-labels.ts';

/** 'Cambiar a membresía Básica' on the membership card: the member confirms before the subscription stops. */
export function DowngradeConfirmModal(props: {
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
  isPending: boolean;
  nextPaymentDate: string | null;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Cambiar a membresía Básica" centered>
      <Text>
        ¿Seguro que quieres cambiar a la membresía Básica? No se harán más cobros y conservarás tus beneficios Premium
        hasta tu próxima fecha de pago{props.nextPaymentDate ? ` (${longDate(props.nextPaymentDate)})` : ''}.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={props.onClose}>
          Cancelar
        </Button>
        <Button color="red" onClick={props.onConfirm} loading={props.isPending}>
          Cambiar a Básica
        </Button>
      </Group>
    </Modal>
  );
}
