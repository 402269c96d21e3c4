import { Avatar } from '@mantine/core';

const initials = (name: string) =>
  name
    .replace(/^(Dra?\.|MVZ)\s+/i, '')
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');

/** A person's initials instead of a photo (no external images). */
export function InitialsAvatar({ name, size = 56 }: { name: string; size?: number }) {
  return (
    <Avatar size={size} radius="xl" color="blue" variant="filled" aria-hidden>
      {initials(name)}
    </Avatar>
  );
}
