import { notifications } from '@mantine/notifications';
import { errorContent } from '#web/components/error-modal.tsx';
import { errorMessages } from '#shared/error-messages.ts';

/** The console's toasts: every save and delete says what happened. */
export const notify = {
  saved: (message = 'Los cambios se guardaron correctamente.') =>
    notifications.show({ color: 'green', title: 'Guardado', message }),
  deleted: (message = 'El registro se eliminó.') => notifications.show({ color: 'green', title: 'Eliminado', message }),
  failed: (error: unknown) => {
    const content = errorContent(error);
    notifications.show({
      color: 'red',
      title: content.title ?? 'No se pudo completar la acción',
      message: content.message,
      autoClose: 8000,
    });
  },
  invalid: () =>
    notifications.show({
      color: 'red',
      title: 'No se guardó',
      message: errorMessages.VALIDATION.message,
      autoClose: 8000,
    }),
};
