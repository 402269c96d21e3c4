import { zodResolver } from '@hookform/resolvers/zod';
import {
  Anchor,
  Button,
  Container,
  Group,
  Loader,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm, type FieldPath } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { Profile } from '#shared/accounts/profile.schemas.ts';
import { profileUpdateSchema, type ProfileUpdateInput } from '#shared/accounts/signup.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useProfile, useUpdateProfile } from '#web/features/accounts/accounts.api.ts';
import { LoginForm } from '#web/features/accounts/components/login-form.tsx';
import { PhoneField } from '#web/features/accounts/components/phone-field.tsx';
import { ProfileFields } from '#web/features/accounts/components/profile-fields.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { paths } from '#web/paths.ts';
import { errorMessages } from '#shared/error-messages.ts';

const reloginMessage = errorMessages.REAUTH_REQUIRED.message;

function AccountForm({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const { showError } = useErrorModal();
  const update = useUpdateProfile();
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<ProfileUpdateInput>({
    resolver: zodResolver(profileUpdateSchema) as never,
    mode: 'onChange',
    defaultValues: {
      name: profile.personal.name,
      email: profile.personal.email,
      phoneNumber: profile.personal.phoneNumber,
      country: profile.personal.country,
      city: profile.personal.city,
      homeUniversity: profile.personal.organizationTitle ?? profile.personal.homeUniversity,
      organizationId: profile.personal.organizationId,
      promoMail: profile.preferences.promoMail,
      newsMail: profile.preferences.newsMail,
      password: '',
      confirmPassword: '',
    },
  });

  const onSubmit = handleSubmit((input) =>
    update.mutate(input, {
      onSuccess: () => {
        notifications.show({
          color: 'green',
          title: 'Perfil guardado',
          message: 'Tus datos se guardaron correctamente.',
        });
        void navigate(paths.profile);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'REAUTH_REQUIRED') {
          showError({ message: error.message });
          return;
        }
        if (error instanceof ApiError && error.fields) {
          for (const [field, message] of Object.entries(error.fields))
            setError(field as FieldPath<ProfileUpdateInput>, { message });
          return;
        }
        showError({ message: errorMessages.PROFILE_SAVE_FAILED.message });
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="account-title">
      <Stack gap="sm">
        <Title id="account-title" order={1}>
          Mi cuenta
        </Title>
        <TextInput
          label="Nombre completo"
          withAsterisk
          autoComplete="name"
          error={errors.name?.message}
          {...register('name')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Correo electrónico"
            type="email"
            withAsterisk
            autoComplete="email"
            error={errors.email?.message}
            {...register('email')}
          />
          <Controller
            control={control}
            name="phoneNumber"
            render={({ field, fieldState }) => (
              <PhoneField
                label="Teléfono"
                required
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
        </SimpleGrid>
        <ProfileFields control={control} register={register} setValue={setValue} errors={errors} />
        <Title order={2} size="h4" mt="sm">
          Cambiar contraseña (opcional)
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <PasswordInput
            label="Nueva contraseña"
            autoComplete="new-password"
            error={errors.password?.message}
            {...register('password', { deps: ['confirmPassword'] })}
          />
          <PasswordInput
            label="Confirma la nueva contraseña"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...register('confirmPassword')}
          />
        </SimpleGrid>
        <Group justify="space-between" mt="md">
          <Anchor component={Link} to={paths.profile}>
            Cancelar
          </Anchor>
          <Button type="submit" loading={update.isPending}>
            Guardar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /perfil/usuario: 'Mi cuenta', behind a fresh sign-in. */
export function ProfileAccountPage() {
  const [reauthenticated, setReauthenticated] = useState(false);
  const profile = useProfile();

  return (
    <Container size={reauthenticated ? 'md' : 460} py={{ base: 'lg', sm: 40 }}>
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
        {!reauthenticated ? (
          <LoginForm
            message={reloginMessage}
            pageTitle="Mi cuenta: confirma tu identidad"
            onSuccess={() => {
              // the form starts from data read after the new sign-in
              void profile.refetch().then(() => setReauthenticated(true));
            }}
          />
        ) : profile.data ? (
          <AccountForm profile={profile.data} />
        ) : (
          <Loader aria-label="Cargando cuenta" />
        )}
      </Paper>
    </Container>
  );
}
