import { Anchor, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SignUpWizard } from '#web/features/accounts/components/signup-wizard.tsx';
import { useCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { longDate } from '#web/features/accounts/membership-labels.ts';
import { paths } from '#web/paths.ts';

/** /registro: the sign-up wizard for guests; a welcome (or the premium view) for members. */
export function SignUpPage() {
  const { user } = useCurrentUser();
  if (!user) {
    return (
      <Container size="lg" py="xl">
        <SignUpWizard />
      </Container>
    );
  }
  // Legacy members and Basic members still in their paid period hold Premium benefits too.
  const premium = user.hasPremiumAccess;
  const until = user.type === 'Legacy' || user.paymentStatus === 'POR_TERMINAR' ? user.terminationDate : null;
  return (
    <Container size={640} py="xl">
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Title order={1}>
            {premium ? `¡Bienvenido a CxVet Premium, ${user.name}!` : `¡Bienvenido a CxVet, ${user.name}!`}
          </Title>
          {premium ? (
            <Text>
              {until
                ? `Tus beneficios Premium están activos hasta el ${longDate(until)}`
                : 'Tu membresía Premium está activa'}
              : tienes acceso a todo el catálogo de cirugías, las guías en PDF, descuentos en cursos y talleres, y los
              diplomados.
            </Text>
          ) : (
            <Text>
              Tu cuenta está lista. Puedes ver los procedimientos gratuitos del catálogo y, cuando quieras, obtener
              Premium desde tu perfil.
            </Text>
          )}
          <Group>
            <Button component={Link} to={paths.catalog}>
              Ver catálogo de cirugías
            </Button>
            <Button component={Link} to={paths.profile} variant="default">
              Ir a mi perfil
            </Button>
          </Group>
          {premium && (
            <Text size="sm">
              ¿Buscas un diplomado? Visita{' '}
              <Anchor component={Link} to={paths.myDiplomas}>
                Cursos y diplomados
              </Anchor>
              .
            </Text>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
