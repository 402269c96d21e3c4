import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ApiError } from '#web/lib/api-client.ts';

/** Puts the server's field messages on the form; returns false when the error was not about fields. */
export function applyServerFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): boolean {
  if (!(error instanceof ApiError) || !error.fields) return false;
  for (const [field, message] of Object.entries(error.fields)) setError(field as Path<T>, { type: 'server', message });
  return true;
}

/** A new record's id, made in the browser so its files can go to procedures/{id} before the first save. */
export function newRecordId(): string {
  return crypto.randomUUID();
}

/** Cancel: back to the previous page, or to the list when the form was opened directly. */
export function useGoBack(fallback: string) {
  const navigate = useNavigate();
  return () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    void (index > 0 ? navigate(-1) : navigate(fallback));
  };
}
