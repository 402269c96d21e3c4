import { Container, Paper } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { LoginForm } from '#web/features/accounts/components/login-form.tsx';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import { returnParam, safeReturnPath } from '#web/features/accounts/guards.ts';
import { paths } from '#web/paths.ts';

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const back = safeReturnPath(params.get(returnParam));

  return (
    <Container size={460} py={{ base: 'lg', sm: 56 }}>
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
        <LoginForm onSuccess={(user) => void navigate(back ?? (isAdmin(user) ? paths.admin : paths.home))} />
      </Paper>
    </Container>
  );
}
