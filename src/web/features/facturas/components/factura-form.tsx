import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { cfdiUseFits, cfdiUses, taxSystems, type CfdiUse, type TaxSystem } from '#shared/facturas/fiscal.rules.ts';
import { adminFacturaSchema, fiscalDataSchema } from '#shared/facturas/fiscal.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useRequestFactura } from '../facturas.api.ts';

type Draft = { rfc: string; legalName: string; taxSystem: string; cfdiUse: string; zip: string };
const empty: Draft = { rfc: '', legalName: '', taxSystem: '', cfdiUse: '', zip: '' };

const taxSystemOptions = Object.entries(taxSystems).map(([value, each]) => ({
  value,
  label: `${value} · ${each.name}`,
}));

/** 'Solicitar factura': the receiver's fiscal data, checked here and on the server, each message under its field. */
export function FacturaForm(props: {
  paymentId: string;
  saved: Draft | null;
  opened: boolean;
  onClose: () => void;
  onDone: (factura: { state: string }) => void;
  /** The Admin's form: a factura to any RFC, without keeping it as anyone's fiscal data. */
  admin?: boolean;
  /** A payment in dollars (the Admin's only): the factura also needs the exchange rate of the payment's day. */
  dollars?: boolean;
}) {
  const [draft, setDraft] = useState<Draft>(props.saved ?? empty);
  const [exchange, setExchange] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const request = useRequestFactura(props.admin);
  const { showAppError } = useErrorModal();
  const set = (field: keyof Draft) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));
  const useOptions = Object.entries(cfdiUses)
    .filter(([use]) => !draft.taxSystem || cfdiUseFits(use as CfdiUse, draft.taxSystem as TaxSystem))
    .map(([value, each]) => ({ value, label: `${value} · ${each.name}` }));

  async function submit() {
    const parsed = props.dollars
      ? adminFacturaSchema.safeParse({
          ...draft,
          exchange: exchange.trim() ? Number(exchange.trim().replace(',', '.')) : Number.NaN,
        })
      : fiscalDataSchema.safeParse(draft);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      return setErrors(found);
    }
    setErrors({});
    try {
      const factura = await request.mutateAsync({ paymentId: props.paymentId, data: parsed.data });
      if (factura.error) setErrors({ _: factura.error });
      else props.onDone(factura);
    } catch (failure) {
      if (failure instanceof ApiError && failure.fields) setErrors(failure.fields);
      else showAppError(failure);
    }
  }

  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Solicitar factura" size="lg">
      <Stack
        component="form"
        gap="sm"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Text size="sm">Escribe los datos como aparecen en tu Constancia de Situación Fiscal.</Text>
        <TextInput
          label="RFC"
          value={draft.rfc}
          onChange={(event) => set('rfc')(event.currentTarget.value)}
          error={errors.rfc}
          autoComplete="off"
          maxLength={20}
        />
        <TextInput
          label="Razón social o nombre"
          value={draft.legalName}
          onChange={(event) => set('legalName')(event.currentTarget.value)}
          error={errors.legalName}
          maxLength={300}
        />
        <Select
          label="Régimen fiscal"
          data={taxSystemOptions}
          value={draft.taxSystem || null}
          onChange={(value) => set('taxSystem')(value ?? '')}
          error={errors.taxSystem}
          allowDeselect={false}
        />
        <Select
          label="Uso de CFDI"
          data={useOptions}
          value={draft.cfdiUse || null}
          onChange={(value) => set('cfdiUse')(value ?? '')}
          error={errors.cfdiUse}
          allowDeselect={false}
        />
        <TextInput
          label="Código postal fiscal"
          value={draft.zip}
          onChange={(event) => set('zip')(event.currentTarget.value)}
          error={errors.zip}
          inputMode="numeric"
          maxLength={5}
        />
        {props.dollars && (
          <TextInput
            label="Tipo de cambio (pesos por dólar)"
            description="El que el Banco de México publicó en el DOF el día anterior al pago."
            value={exchange}
            onChange={(event) => setExchange(event.currentTarget.value)}
            error={errors.exchange}
            inputMode="decimal"
            maxLength={12}
          />
        )}
        {errors._ && (
          <Text c="red" size="sm" role="alert">
            {errors._}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancelar
          </Button>
          <Button type="submit" loading={request.isPending}>
            Solicitar factura
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
