// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errorMessages } from '#shared/error-messages.ts';
import { messages } from '#shared/messages.ts';
import { usePendingUploads } from '#web/components/console/pending-uploads.ts';
import { renderWithApp, stubApi } from '#web/testing/render.tsx';
import { FormUploadField, UploadField } from './upload-field.tsx';

/** Stands in for the browser's XMLHttpRequest, so a test drives the upload's progress and answer. */
class FakeUpload {
  static last: FakeUpload | null = null;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  responseType = '';
  status = 0;
  response: unknown = null;
  url = '';
  sent: FormData | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.sent = body;
    FakeUpload.last = this;
  }
  abort() {
    this.onabort?.();
  }
  progress(percent: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded: percent, total: 100 }));
  }
  answer(status: number, response: unknown) {
    this.status = status;
    this.response = response;
    act(() => this.onload?.());
  }
}

const changes: (string | null)[] = [];

function Field() {
  const [value, setValue] = useState<string | null>(null);
  const pending = usePendingUploads();
  return (
    <UploadField
      label="Imagen del evento"
      target="event-image"
      value={value}
      onChange={(key) => {
        changes.push(key);
        setValue(key);
      }}
      pending={pending}
    />
  );
}

const picture = (name = 'foto.png', size = 2048) => new File([new Uint8Array(size)], name, { type: 'image/png' });

beforeEach(() => {
  FakeUpload.last = null;
  changes.length = 0;
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
});

describe('the upload field', () => {
  it('shows the upload progress, then the stored file, and gives the form only its key', async () => {
    const { user } = renderWithApp(<Field />);
    await user.upload(screen.getByLabelText('Imagen del evento'), picture());
    const upload = FakeUpload.last!;
    expect(upload.url).toBe('/api/admin/uploads?target=event-image');
    expect((upload.sent!.get('file') as File).name).toBe('foto.png');

    const dialog = await screen.findByRole('dialog', { name: 'Subiendo archivo' });
    expect(within(dialog).getByText('0%')).toBeTruthy();
    upload.progress(42);
    expect(within(dialog).getByText('42%')).toBeTruthy();
    expect(
      within(dialog).getByRole('progressbar', { name: 'Progreso de la carga' }).getAttribute('aria-valuenow'),
    ).toBe('42');

    upload.answer(200, { key: 'events/1700000000_foto.png', kind: 'image' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Subiendo archivo' })).toBeNull());
    expect(screen.getByText('foto.png')).toBeTruthy();
    expect(changes).toEqual(['events/1700000000_foto.png']);
  });

  it('refuses a file of the wrong format or too large before sending anything', async () => {
    renderWithApp(<Field />);
    const user = userEvent.setup({ applyAccept: false, delay: null });
    await user.upload(
      screen.getByLabelText('Imagen del evento'),
      new File(['%PDF'], 'guia.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByText(messages.invalidFileFormat)).toBeTruthy();
    await user.upload(screen.getByLabelText('Imagen del evento'), picture('enorme.png', 11 * 1024 * 1024));
    expect(await screen.findByText(errorMessages.PAYLOAD_TOO_LARGE.message)).toBeTruthy();
    expect(FakeUpload.last).toBeNull();
    expect(changes).toEqual([]);
  });

  it("shows the server's format message under the field", async () => {
    const { user } = renderWithApp(<Field />);
    await user.upload(screen.getByLabelText('Imagen del evento'), picture());
    FakeUpload.last!.answer(415, { code: 'FILE_FORMAT', message: messages.invalidFileFormat });
    expect(await screen.findByText(messages.invalidFileFormat)).toBeTruthy();
    expect(changes).toEqual([]);
  });

  it('stops the upload on Cancelar, and Descartar drops an unsaved upload on the server', async () => {
    const calls = stubApi({ 'POST /api/admin/uploads/discard': () => ({ ok: true }) });
    const { user } = renderWithApp(<Field />);
    await user.upload(screen.getByLabelText('Imagen del evento'), picture());
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Subiendo archivo' })).getByRole('button', { name: 'Cancelar' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Subiendo archivo' })).toBeNull());
    expect(changes).toEqual([]);
    expect(screen.getByText('Ningún archivo seleccionado')).toBeTruthy();

    await user.upload(screen.getByLabelText('Imagen del evento'), picture('otra.png'));
    FakeUpload.last!.answer(200, { key: 'events/1700000001_otra.png', kind: 'image' });
    await user.click(await screen.findByRole('button', { name: 'Descartar: Imagen del evento' }));
    expect(changes).toEqual(['events/1700000001_otra.png', null]);
    await waitFor(() =>
      expect(calls).toEqual([
        { method: 'POST', path: '/api/admin/uploads/discard', body: { key: 'events/1700000001_otra.png' } },
      ]),
    );
  });
});

const eventFiles = z.object({ image: z.string().min(1, 'Selecciona una imagen'), pdf: z.string().nullable() });
const submitted: z.infer<typeof eventFiles>[] = [];

/** Two fields of a console form: a required image ('' when empty) and an optional PDF (null when empty). */
function EventFilesForm() {
  const form = useForm({ resolver: zodResolver(eventFiles), defaultValues: { image: '', pdf: 'events/guia.pdf' } });
  const pending = usePendingUploads();
  return (
    <form onSubmit={form.handleSubmit((values) => void submitted.push(values))} noValidate>
      <FormUploadField
        form={form}
        name="image"
        label="Imagen del evento"
        target="event-image"
        required
        pending={pending}
      />
      <FormUploadField
        form={form}
        name="pdf"
        empty={null}
        label="PDF del evento"
        target="event-pdf"
        pending={pending}
      />
      <button type="submit">Guardar</button>
    </form>
  );
}

describe('the upload field in a console form', () => {
  beforeEach(() => {
    submitted.length = 0;
  });

  it("shows the field's error, clears it once a file is stored, and submits the key", async () => {
    const { user } = renderWithApp(<EventFilesForm />);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Selecciona una imagen')).toBeTruthy();
    expect(submitted).toEqual([]);

    await user.upload(screen.getByLabelText('Imagen del evento'), picture());
    FakeUpload.last!.answer(200, { key: 'events/1700000000_foto.png', kind: 'image' });
    await waitFor(() => expect(screen.queryByText('Selecciona una imagen')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(submitted).toEqual([{ image: 'events/1700000000_foto.png', pdf: 'events/guia.pdf' }]));
  });

  it('gives an optional field null, and a required one an empty string, when the file is discarded', async () => {
    stubApi({ 'POST /api/admin/uploads/discard': () => ({ ok: true }) });
    const { user } = renderWithApp(<EventFilesForm />);
    await user.upload(screen.getByLabelText('Imagen del evento'), picture());
    FakeUpload.last!.answer(200, { key: 'events/1700000000_foto.png', kind: 'image' });
    await user.click(await screen.findByRole('button', { name: 'Descartar: PDF del evento' }));
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(submitted).toEqual([{ image: 'events/1700000000_foto.png', pdf: null }]));

    await user.click(screen.getByRole('button', { name: 'Descartar: Imagen del evento' }));
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Selecciona una imagen')).toBeTruthy();
    expect(submitted).toHaveLength(1);
  });
});
