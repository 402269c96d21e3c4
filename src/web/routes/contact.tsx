import { Container, Paper, Text, Title } from '@mantine/core';
import { ContactForm } from '#web/features/contact/components/contact-form.tsx';

export function ContactPage() {
  return (
    <Container size={640} py={{ base: 'lg', md: 40 }}>
      <Title order={1} mb="xs">
        Contacto
      </Title>
      <Text mb="lg">¿Tienes preguntas o comentarios? Escríbenos y te responderemos por correo.</Text>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <ContactForm />
      </Paper>
    </Container>
  );
}
