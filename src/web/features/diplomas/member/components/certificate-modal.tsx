import { Modal } from '@mantine/core';
import type { Course } from '#shared/diplomas/diplomas.schemas.ts';
import { CertificateActions } from './certificate-actions.tsx';

/** Opens at 100% (spec 3 §2). */
export function CertificateModal({
  course,
  opened,
  onClose,
}: {
  course: Course;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} centered title="¡Felicidades!">
      <CertificateActions course={course} />
    </Modal>
  );
}
