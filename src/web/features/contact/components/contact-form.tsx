import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { contactSchema, type ContactInput } from '#shared/contact/contact.schemas.ts';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSendContactMessage } from '#web/features/contact/contact.api.ts';

type Status = 'idle' | 'sending' | 'sent' | 'error';
const fieldNames = ['name', 'email', 'subject', 'message'] as const;

/** Spec 1 §4: idle, sending, sent, error; editing a field clears errors and the sent flag. */
export function ContactForm() {
  const send = useSendContactMessage();
  const { showError } = useErrorModal();
  const [status, setStatus] = useState<Status>('idle');
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ContactInput>({
    resolver: zodResolver(contactSchema),
    mode: 'onChange',
    defaultValues: { name: '', email: '', subject: '', message: '' },
  });

  // Editing a field clears the sent flag and the error.
  const field = (name: (typeof fieldNames)[number]) =>
    register(name, {
      onChange: () => setStatus((current) => (current === 'sent' || current === 'error' ? 'idle' : current)),
    });

  const onSubmit = handleSubmit((input) => {
    setStatus('sending');
    send.mutate(input, {
      onSuccess: () => {
        reset();
        setStatus('sent');
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400 && error.fields) {
          for (const name of fieldNames) {
            const message = error.fields[name];
            if (message) setError(name, { message });
          }
          setStatus('idle');
          return;
        }
        setStatus('error');
        showError({ title: messages.contactFailedTitle, message: messages.contactFailed });
      },
    });
  });

  const sending = status === 'sending';
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Formulario de contacto">
      <Stack gap="md">
        <TextInput label="Nombre" autoComplete="name" withAsterisk error={errors.name?.message} {...field('name')} />
        <TextInput
          label="Correo electrónico"
          type="email"
          autoComplete="email"
          withAsterisk
          error={errors.email?.message}
          {...field('email')}
        />
        <TextInput label="Asunto" withAsterisk error={errors.subject?.message} {...field('subject')} />
        <Textarea
          label="Mensaje"
          withAsterisk
          autosize
          minRows={5}
          error={errors.message?.message}
          {...field('message')}
        />
        {status === 'sending' && (
          <Alert color="blue" variant="light" role="status">
            {messages.contactSending}
          </Alert>
        )}
        {status === 'sent' && (
          <Alert color="green" variant="light" role="status" title="¡Gracias por escribirnos!">
            Recibimos tu mensaje y te responderemos a la brevedad.
          </Alert>
        )}
        {status === 'error' && (
          <Alert color="red" variant="light" role="alert">
            {messages.contactFailedInline}
          </Alert>
        )}
        <Button type="submit" loading={sending} disabled={sending} style={{ alignSelf: 'flex-start' }}>
          Enviar mensaje
        </Button>
      </Stack>
    </form>
  );
}
