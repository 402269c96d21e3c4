import { Button, Card, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { planPriceCents } from '#shared/payments/payments.rules.ts';
import { paths } from '#web/paths.ts';
import classes from './membership-plans.module.css';

const usd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

const rows: { feature: string; basic: boolean | string; premium: boolean | string }[] = [
  { feature: 'Procedimientos gratuitos completos', basic: true, premium: true },
  { feature: 'Catálogo completo de procedimientos Premium', basic: 'Solo demostración', premium: true },
  { feature: 'Descarga de guías en PDF', basic: 'Solo procedimientos gratuitos', premium: true },
  { feature: 'Descuentos en cursos y talleres', basic: false, premium: true },
  { feature: 'Cursos y diplomados con constancia', basic: false, premium: true },
  { feature: 'Agenda de eventos y comunidad', basic: true, premium: true },
];

const cell = (value: boolean | string) => (value === true ? 'Sí' : value === false ? 'No' : value);

/** Básica vs Premium, with the spec's prices. */
export function MembershipPlans({ isGuest }: { isGuest: boolean }) {
  return (
    <Stack gap="lg" align="center">
      <Card withBorder radius="md" p={0} w="100%" maw={860}>
        <table className={classes.plans}>
          <caption>Comparación de membresías</caption>
          <thead>
            <tr>
              <th scope="col">Beneficio</th>
              <th scope="col">
                <Text fw={700}>Básica</Text>
                <Text size="sm">Gratis para siempre</Text>
              </th>
              <th scope="col">
                <Text fw={700} c="blue.9">
                  Premium
                </Text>
                <Text size="sm">{usd(planPriceCents.monthly)}/mes</Text>
                <Text size="sm">o {usd(planPriceCents.annual)}/año</Text>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.feature}>
                <th scope="row">{row.feature}</th>
                <td>{cell(row.basic)}</td>
                <td>{cell(row.premium)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {isGuest && (
        <Button component={Link} to={paths.signUp} size="lg">
          Únete a CxVet
        </Button>
      )}
      <Text size="sm" c="dimmed" ta="center">
        Las cuentas son personales y se usan en un dispositivo a la vez.
      </Text>
    </Stack>
  );
}
