import { Container, Paper } from '@mantine/core';
import { useNavigate } from 'react-router';
import { LoginForm } from '#web/features/accounts/components/login-form.tsx';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import { paths } from '#web/paths.ts';

export function LoginPage() {
  const navigate = useNavigate();

  return (
    <Container size={460} py={{ base: 'lg', sm: 56 }}>
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
        <LoginForm onSuccess={(user) => void navigate(isAdmin(user) ? paths.admin : paths.home)} />
      </Paper>
    </Container>
  );
}
