import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useCurrentUser } from '#web/features/accounts/api.ts';
import { paths } from '#web/paths.ts';
import classes from './home.module.css';

export function HomePage() {
  const { user } = useCurrentUser();

  return (
    <section className={classes.hero} aria-labelledby="home-title">
      <Container size="md">
        <Stack align="center" gap="lg" py={{ base: 56, md: 96 }}>
          <Title id="home-title" order={1} className={classes.title}>
            CxVet
          </Title>
          <Text className={classes.pitch}>
            Aprende cirugía veterinaria con videos de procedimientos quirúrgicos, guías en PDF y
            diplomados, desde estudiantes hasta cirujanos experimentados.
          </Text>
          <Group justify="center">
            {!user && (
              <Button component={Link} to={paths.signUp} size="lg" color="white" c="blue.9">
                Únete a CxVet
              </Button>
            )}
            <Button component={Link} to={paths.catalog} size="lg" variant="outline" color="white">
              Ver procedimientos
            </Button>
          </Group>
        </Stack>
      </Container>
    </section>
  );
}
