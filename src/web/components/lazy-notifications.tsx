import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

// The toasts' container, its transitions and styles load with the first toast: most visits never show one
//. notifications.show() only needs the store, which is here from the start.
const Notifications = lazy(() => import('./notifications-container.tsx').then((m) => ({ default: m.Notifications })));

export function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications />
    </Suspense>
  );
}
