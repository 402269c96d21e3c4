import '@mantine/notifications/styles.layer.css';

export { Notifications } from '@mantine/notifications';
