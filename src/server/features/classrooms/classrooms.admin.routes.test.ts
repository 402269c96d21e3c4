import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, createUser, loginCookie, signedInAs } from '#server/testing/factories.ts';
import { uploadSample } from '#server/features/uploads/uploads.testing.ts';
import { classroomUsers, classrooms, organizations } from '#server/db/schema/index.ts';
import type { ClassroomInput, ImportInput, ImportPreview } from '#shared/classrooms/classrooms.schemas.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { messages } from '#shared/messages.ts';

let t: TestApp;
let admin: string;
let university: { id: string };
let company: { id: string };
let procedureIds: string[];

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
  university = (
    await t.db.insert(organizations).values({ title: 'Universidad del Norte', type: 'Universidad' }).returning()
  )[0]!;
  company = (await t.db.insert(organizations).values({ title: 'Empresa Vet', type: 'Empresa' }).returning())[0]!;
  procedureIds = [
    (await createProcedure(t, { type: 'Premium', name: 'Esplenectomía' })).id,
    (await createProcedure(t, { name: 'Cistotomía' })).id,
  ];
});
afterAll(async () => t.close());

const headers = (cookie = admin) => ({ origin: testPublicUrl, cookie });
const put = (id: string, payload: unknown, cookie = admin) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/admin/classrooms/${id}`,
    headers: headers(cookie),
    payload: payload as object,
  });

/** The Admin's import preview of a Universidad aula not saved yet. */
const previewOf = (source: ImportInput) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/classrooms/import-preview',
    headers: headers(),
    payload: { organizationId: university.id, addedUserIds: [], removedUserIds: [], source },
  });

async function validInput(id: string, values: Partial<ClassroomInput> = {}): Promise<ClassroomInput> {
  return {
    title: 'Aula de Cirugía',
    description: '',
    accessType: 'Acceso controlado',
    organizationType: 'Universidad',
    organizationId: university.id,
    expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    previewImage: await uploadSample(t, admin, 'classroom-preview-image', 'portada.jpg', id),
    previewPdf: await uploadSample(t, admin, 'classroom-preview-pdf', 'informacion.pdf', id),
    procedureIds,
    adminUserId: null,
    ...values,
  };
}

describe('the Admin aula form', () => {
  it('shows every message of spec 3 §5 at once for an empty form', async () => {
    const response = await put(randomUUID(), {
      title: '',
      procedureIds: [],
      adminUserId: null,
      previewImage: '',
      previewPdf: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      title: 'Este campo es requerido.',
      accessType: 'Este campo es requerido.',
      organizationType: 'Este campo es requerido.',
      organizationId: 'Este campo es requerido.',
      expiresAt: 'Este campo es requerido.',
      previewImage: 'Se requiere la imagen de vista previa.',
      previewPdf: 'Se requiere la pdf de información previa.',
      procedureIds: 'Debes seleccionar al menos un video.',
    });
  });

  it('creates a Universidad aula with its videos, its members and an administrator, and lists it with its counts', async () => {
    const student = await createUser(t, { organizationId: university.id });
    const staff = await createUser(t, { organizationId: university.id });
    const id = randomUUID();
    const response = await put(id, await validInput(id, { addedUserIds: [student.id], adminUserId: staff.id }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id,
      procedureIds,
      userCount: 1,
      adminUserId: staff.id,
      adminUserEmail: staff.email,
      isActive: true,
    });
    const list = (await t.app.inject({ url: '/api/admin/classrooms', headers: headers() })).json().items;
    expect(list).toContainEqual(
      expect.objectContaining({
        id,
        title: 'Aula de Cirugía',
        organizationTitle: 'Universidad del Norte',
        videoCount: 2,
        userCount: 1,
        isActive: true,
      }),
    );
    // the preview files were claimed: the aula's own folder
    expect(response.json().previewImage).toMatch(new RegExp(`^aulas/${id}/`));
  });

  it('refuses users from outside the university and an organization of another type', async () => {
    const outsider = await createUser(t);
    const id = randomUUID();
    const refused = await put(id, await validInput(id, { addedUserIds: [outsider.id] }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('CLASSROOM_USERS_NOT_ALLOWED');
    const wrongType = await put(id, await validInput(id, { organizationId: company.id }));
    expect(wrongType.json().fields).toEqual({ organizationId: 'Este campo es requerido.' });
    expect(await t.db.select().from(classrooms).where(eq(classrooms.id, id))).toEqual([]);
  });

  it('keeps no users list and no administrator on an Empresa aula', async () => {
    const someone = await createUser(t);
    const id = randomUUID();
    const response = await put(
      id,
      await validInput(id, {
        organizationType: 'Empresa',
        organizationId: company.id,
        accessType: 'Acceso libre',
        addedUserIds: [someone.id],
        adminUserId: someone.id,
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ userCount: 0, adminUserId: null });
  });

  it('activating or deactivating empties the users list; only an inactive aula can be deleted, with its files', async () => {
    const student = await createUser(t, { organizationId: university.id });
    const id = randomUUID();
    const saved = (await put(id, await validInput(id, { addedUserIds: [student.id] }))).json();
    const toggle = (isActive: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/classrooms/${id}/active`,
        headers: headers(),
        payload: { isActive },
      });
    const remove = () => t.app.inject({ method: 'DELETE', url: `/api/admin/classrooms/${id}`, headers: headers() });

    expect((await remove()).statusCode).toBe(409);
    expect((await toggle(false)).statusCode).toBe(200);
    expect(await t.db.select().from(classroomUsers).where(eq(classroomUsers.classroomId, id))).toEqual([]);
    expect((await t.app.inject({ url: `/api/admin/classrooms/${id}`, headers: headers() })).json().isActive).toBe(
      false,
    );
    expect(await t.storage.stat(saved.previewPdf)).not.toBeNull();
    expect((await remove()).statusCode).toBe(200);
    expect(await t.storage.stat(saved.previewPdf)).toBeNull();
    expect((await remove()).statusCode).toBe(404);
  });

  it('lists the videos with tags, species and type', async () => {
    const videos = (await t.app.inject({ url: '/api/admin/classrooms/videos', headers: headers() })).json().items;
    expect(videos.map((video: { name: string }) => video.name)).toEqual(['Cistotomía', 'Esplenectomía']);
    expect(videos[0]).toMatchObject({ species: 'Perro', type: 'Gratis', tags: [] });
  });

  it('sends the member count and the administrator’s e-mail, not the members', async () => {
    const students = await Promise.all([1, 2, 3].map(() => createUser(t, { organizationId: university.id })));
    const staff = await createUser(t, { organizationId: university.id });
    const id = randomUUID();
    await put(id, await validInput(id, { addedUserIds: students.map((user) => user.id), adminUserId: staff.id }));
    const body = (await t.app.inject({ url: `/api/admin/classrooms/${id}`, headers: headers() })).json();
    expect(body).toMatchObject({ userCount: 3, adminUserEmail: staff.email });
    expect(body).not.toHaveProperty('userIds');
    expect(JSON.stringify(body)).not.toContain(students[0]!.id);
  });

  it('saves ticks and unticks against the saved list, and starts it again when the organization changes', async () => {
    const [kept, dropped, added] = await Promise.all(
      [1, 2, 3].map(() => createUser(t, { organizationId: university.id })),
    );
    const id = randomUUID();
    await put(id, await validInput(id, { addedUserIds: [kept!.id, dropped!.id] }));
    const changed = await put(id, await validInput(id, { addedUserIds: [added!.id], removedUserIds: [dropped!.id] }));
    expect(changed.statusCode, changed.body).toBe(200);
    const memberIds = async () =>
      (await t.db.select().from(classroomUsers).where(eq(classroomUsers.classroomId, id))).map((row) => row.userId);
    expect((await memberIds()).sort()).toEqual([kept!.id, added!.id].sort());
    // unticking someone who is not a member, or ticking a member again, changes nothing
    await put(id, await validInput(id, { addedUserIds: [kept!.id], removedUserIds: [dropped!.id] }));
    expect((await memberIds()).sort()).toEqual([kept!.id, added!.id].sort());

    const other = (
      await t.db.insert(organizations).values({ title: 'Universidad del Sur', type: 'Universidad' }).returning()
    )[0]!;
    const south = await createUser(t, { organizationId: other.id });
    await put(id, await validInput(id, { organizationId: other.id, addedUserIds: [south.id] }));
    expect(await memberIds()).toEqual([south.id]);
  });
  it('takes two saves of the same aula at once: both ticks kept, and the list always of the organization saved last', async () => {
    const south = (
      await t.db.insert(organizations).values({ title: 'Universidad del Sur', type: 'Universidad' }).returning()
    )[0]!;
    const north = await Promise.all(Array.from({ length: 20 }, () => createUser(t, { organizationId: university.id })));
    const southern = await Promise.all(Array.from({ length: 10 }, () => createUser(t, { organizationId: south.id })));
    const ids = (users: { id: string }[]) => users.map((user) => user.id);
    const id = randomUUID();
    const members = async () =>
      (await t.db.select().from(classroomUsers).where(eq(classroomUsers.classroomId, id))).map((row) => row.userId);
    const read = async () => (await t.app.inject({ url: `/api/admin/classrooms/${id}`, headers: headers() })).json();
    const both = async (first: Partial<ClassroomInput>, second: Partial<ClassroomInput>) => {
      const [one, two] = await Promise.all([validInput(id, first), validInput(id, second)]);
      const responses = await Promise.all([put(id, one), put(id, two)]);
      expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
      const saved = await members();
      expect(new Set(saved).size).toBe(saved.length);
      expect((await read()).userCount).toBe(saved.length);
      return saved.sort();
    };

    // a new aula saved twice at once, and then the same aula's different ticks: both kept
    expect(await both({ addedUserIds: ids(north.slice(0, 5)) }, { addedUserIds: ids(north.slice(0, 5)) })).toEqual(
      ids(north.slice(0, 5)).sort(),
    );
    expect(
      await both({ addedUserIds: ids(north.slice(5, 15)) }, { addedUserIds: ids(north.slice(10, 20)).reverse() }),
    ).toEqual(ids(north).sort());
    // one save moves the aula to another organization while another ticks: the list is the final organization's
    for (let round = 0; round < 3; round += 1) {
      const stays = { organizationId: university.id, addedUserIds: ids(north.slice(0, 3)) };
      const moves = { organizationId: south.id, addedUserIds: ids(southern) };
      const saved = await both(round % 2 === 0 ? stays : moves, round % 2 === 0 ? moves : stays);
      const organizationId = (await read()).organizationId as string;
      const admitted = organizationId === south.id ? ids(southern) : ids(north);
      expect(saved.filter((userId) => !admitted.includes(userId))).toEqual([]);
    }
  });

  it('is out of reach of an aula administrator and of members', async () => {
    const staff = await createUser(t, { organizationId: university.id });
    const id = randomUUID();
    await put(id, await validInput(id, { adminUserId: staff.id }));
    const cookie = await loginCookie(t, staff.email);
    expect((await t.app.inject({ url: `/api/admin/classrooms/${id}`, headers: headers(cookie) })).statusCode).toBe(403);
    expect((await put(id, await validInput(id), cookie)).statusCode).toBe(403);
  });
});

describe('the candidates of the Admin form, a page at a time', () => {
  type Page = { items: { id: string; email: string; assigned: boolean }[]; total: number };
  const candidates = (query: string, cookie = admin) =>
    t.app.inject({ url: `/api/admin/classrooms/candidates?${query}`, headers: headers(cookie) });

  it('searches in any case, marks and filters the members, sorts and pages, 12 rows at a time with the total', async () => {
    const stamp = randomUUID().slice(0, 8);
    const people = [];
    for (let index = 1; index <= 30; index += 1) {
      people.push(
        await createUser(t, {
          organizationId: university.id,
          name: `Candidata ${index}`,
          email: `candidata-${stamp}-${String(index).padStart(2, '0')}@example.com`,
        }),
      );
    }
    const outsider = await createUser(t, { email: `candidata-${stamp}-99@example.com` });
    const id = randomUUID();
    const members = [people[2]!, people[16]!, people[28]!];
    await put(id, await validInput(id, { addedUserIds: members.map((user) => user.id) }));
    const page = async (query: string) => {
      const response = await candidates(
        `organizationId=${university.id}&classroomId=${id}&q=CANDIDATA-${stamp}${query}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Page;
    };

    const first = await page('');
    expect(first.total).toBe(30);
    expect(first.items.map((user) => user.id)).toEqual(people.slice(0, 12).map((user) => user.id));
    expect(first.items[2]).toMatchObject({ assigned: true });
    expect(first.items[0]).toMatchObject({ assigned: false });
    expect((await page('&page=3')).items.map((user) => user.id)).toEqual(people.slice(24).map((user) => user.id));
    expect((await page('&sort=email&dir=desc')).items[0]!.id).toBe(people[29]!.id);
    const assigned = await page('&assignedOnly=true');
    expect(assigned.total).toBe(3);
    expect(assigned.items.map((user) => [user.id, user.assigned])).toEqual(members.map((user) => [user.id, true]));
    expect((await page('&sort=assigned&dir=desc')).items.slice(0, 4).map((user) => user.id)).toEqual([
      ...members.map((user) => user.id),
      people[0]!.id,
    ]);
    // a Universidad aula lists its organization's members only
    expect(JSON.stringify(await page(''))).not.toContain(outsider.id);
    expect((await page('')).total).toBe(30);
    // an Empresa aula admits every account
    const everyone = (await candidates(`organizationId=${company.id}&q=candidata-${stamp}`)).json() as Page;
    expect(everyone.total).toBe(31);
    // without a saved aula nobody is marked
    const fresh = (await candidates(`organizationId=${university.id}&q=candidata-${stamp}`)).json() as Page;
    expect(fresh.items.some((user) => user.assigned)).toBe(false);
    for (const bad of ['&sort=password', '&page=0', `&q=${'x'.repeat(101)}`]) {
      expect((await candidates(`organizationId=${university.id}${bad}`)).statusCode, bad).toBe(400);
    }
  });

  it('lists, saves and imports no Admin account, in a Universidad or an Empresa; an Admin may still administer the aula', async () => {
    const stamp = randomUUID().slice(0, 8);
    const student = await createUser(t, { organizationId: university.id, email: `cuenta-${stamp}-1@uni.example.com` });
    const universityAdmin = await createUser(t, {
      type: 'Admin',
      organizationId: university.id,
      email: `cuenta-${stamp}-2@uni.example.com`,
    });
    const siteAdmin = await createUser(t, { type: 'Admin', email: `cuenta-${stamp}-3@cxvet.example.com` });
    for (const organization of [university, company]) {
      const listed = (await candidates(`organizationId=${organization.id}&q=cuenta-${stamp}`)).json() as Page;
      expect(listed.items.map((user) => user.id)).toEqual([student.id]);
    }

    const id = randomUUID();
    const refused = await put(id, await validInput(id, { addedUserIds: [student.id, universityAdmin.id] }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('CLASSROOM_USERS_NOT_ALLOWED');
    expect(await t.db.select().from(classrooms).where(eq(classrooms.id, id))).toEqual([]);
    const saved = await put(id, await validInput(id, { addedUserIds: [student.id], adminUserId: universityAdmin.id }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ userCount: 1, adminUserId: universityAdmin.id });

    const preview = await previewOf({ format: 'text', text: [universityAdmin.email, siteAdmin.email].join('\n') });
    const admitsNone = 'Es una cuenta de Admin: entra a todas las aulas sin estar en la lista';
    expect((preview.json() as ImportPreview).lines.map((line) => [line.status, line.reason])).toEqual([
      ['outside', admitsNone],
      ['outside', admitsNone],
    ]);
    expect((preview.json() as ImportPreview).matched).toEqual([]);
  });

  it('is refused to an aula administrator, a member and a guest', async () => {
    const staff = await createUser(t, { organizationId: university.id });
    const id = randomUUID();
    await put(id, await validInput(id, { adminUserId: staff.id }));
    const query = `organizationId=${university.id}&classroomId=${id}`;
    expect((await candidates(query, await loginCookie(t, staff.email))).statusCode).toBe(403);
    expect((await candidates(query, (await signedInAs(t, { type: 'Premium' })).cookie)).statusCode).toBe(403);
    expect((await candidates(query, '')).statusCode).toBe(401);
  });
});

describe('bulk members on the Admin form', () => {
  it('reports 1,000 addresses line by line: duplicates, case, blanks, unknown and outside addresses', async () => {
    const members = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        createUser(t, { organizationId: university.id, email: `alumno${index}@uni.example.com` }),
      ),
    );
    const outsider = await createUser(t, { email: 'externo@otra.example.com' });
    const lines: string[] = [];
    for (let index = 0; index < 1000; index += 1) {
      const kind = index % 10;
      if (kind === 0) lines.push(`ALUMNO${(index / 10) % 5}@UNI.example.com`);
      else if (kind === 1) lines.push('');
      else if (kind === 2) lines.push(outsider.email);
      else if (kind === 3) lines.push('no es un correo');
      else lines.push(`desconocido${index}@example.com`);
    }
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/classrooms/import-preview',
      headers: headers(),
      payload: {
        organizationId: university.id,
        addedUserIds: [members[4]!.id],
        removedUserIds: [],
        source: { format: 'text', text: lines.join('\n') },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json() as ImportPreview;
    expect(preview.lines).toHaveLength(1000);
    const count = (status: string) => preview.lines.filter((line) => line.status === status).length;
    expect(count('ok')).toBe(4);
    expect(count('already')).toBe(1);
    expect(count('duplicate')).toBe(95 + 99);
    expect(count('blank')).toBe(100);
    expect(count('outside')).toBe(1);
    expect(count('invalid')).toBe(100);
    expect(count('unknown')).toBe(600);
    expect(preview.lines[0]).toMatchObject({
      line: 1,
      email: 'alumno0@uni.example.com',
      status: 'ok',
      user: { id: members[0]!.id },
    });
    expect(preview.lines[2]).toMatchObject({
      line: 3,
      status: 'outside',
      reason: 'La cuenta no pertenece a la organización del aula',
    });
    expect(preview.lines[50]).toMatchObject({
      line: 51,
      status: 'duplicate',
      reason: 'Repetido: ya aparece en la línea 1',
    });
    expect(preview.matched.map((user) => user.id).sort()).toEqual(
      members
        .slice(0, 4)
        .map((user) => user.id)
        .sort(),
    );
  });

  it('reads an xlsx file and exports the members as xlsx with name, e-mail and last sign-in, formulas as text', async () => {
    const member = await signedInAs(t, {
      organizationId: university.id,
      email: 'hoja@uni.example.com',
      name: '=HYPERLINK("x")',
    });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Alumnos');
    sheet.addRow(['Correo', 'Nombre']);
    sheet.addRow(['hoja@uni.example.com', 'Hoja']);
    const dataBase64 = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
    const preview = (await previewOf({ format: 'xlsx', fileName: 'alumnos.xlsx', dataBase64 })).json() as ImportPreview;
    expect(preview.lines.map((line) => line.status)).toEqual(['invalid', 'ok']);

    const id = randomUUID();
    await put(id, await validInput(id, { addedUserIds: preview.matched.map((user) => user.id) }));
    const file = await t.app.inject({ url: `/api/admin/classrooms/${id}/users.xlsx`, headers: headers() });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const read = new ExcelJS.Workbook();
    await read.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows = read.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0]!.slice(1)).toEqual(['Nombre', 'Correo', 'Último inicio de sesión (America/Mexico_City)']);
    expect(rows[1]!.slice(1, 3)).toEqual(['=HYPERLINK("x")', 'hoja@uni.example.com']);
    expect(read.worksheets[0]!.getRow(2).getCell(1).numFmt).toBe('@');
    // a real date-and-time cell on the site's clock, not text
    expect(rows[1]![3]).toBeInstanceOf(Date);
    expect(read.worksheets[0]!.getRow(2).getCell(3).numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(member.user.id).toBe(preview.matched[0]!.id);
  });

  it('reads the CSV files Excel and Google Sheets save in Spanish locales: UTF-16 and UTF-8 with a BOM, ";" separators', async () => {
    await createUser(t, { organizationId: university.id, email: 'csv@uni.example.com' });
    const rows = ['Nombre;Correo', 'Ana Pérez;csv@uni.example.com', 'Sin correo;—'];
    const utf16le = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(rows.join('\r\n').replaceAll(';', '\t'), 'utf16le'),
    ]);
    const utf16be = Buffer.from(
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(rows.join('\r\n'), 'utf16le').swap16()]),
    );
    const files: [string, Buffer][] = [
      [
        'Excel "CSV UTF-8" (UTF-8 with BOM, ";")',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rows.join('\r\n'))]),
      ],
      ['Excel "Texto Unicode" (UTF-16LE with BOM, tabs)', utf16le],
      ['UTF-16BE with BOM', utf16be],
      ['Google Sheets (UTF-8, ",")', Buffer.from(rows.join('\n').replaceAll(';', ',') + '\n')],
    ];
    for (const [name, data] of files) {
      const response = await previewOf({ format: 'csv', fileName: 'alumnos.csv', dataBase64: data.toString('base64') });
      expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
      const preview = response.json() as ImportPreview;
      expect(
        preview.lines.map((line) => [line.status, line.email]),
        name,
      ).toEqual([
        ['invalid', null],
        ['ok', 'csv@uni.example.com'],
        ['invalid', null],
      ]);
      expect(preview.lines[1]!.text, name).toBe('Ana Pérez, csv@uni.example.com');
    }
  });

  it('refuses a CSV file holding a NUL byte with the same 400 as pasted text', async () => {
    const pasted = await previewOf({ format: 'text', text: 'a\u0000@example.com' });
    expect(pasted.statusCode).toBe(400);
    expect(pasted.json().fields).toEqual({ 'source.text': messages.nulCharacter });
    const csv = await previewOf({
      format: 'csv',
      fileName: 'alumnos.csv',
      dataBase64: Buffer.from('uno@example.com\n\u0000dos@example.com\n').toString('base64'),
    });
    expect(csv.statusCode, csv.body).toBe(400);
    expect(csv.json()).toMatchObject({ code: 'VALIDATION', fields: { dataBase64: messages.nulCharacter } });
  });

  it('stops reading an xlsx sheet at the line limit, with the message of an overlong CSV', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Alumnos').addRow(['x']);
    const files = unzipSync(new Uint8Array(await workbook.xlsx.writeBuffer()));
    const sheetPath = Object.keys(files).find((file) => /^xl\/worksheets\/sheet\d+\.xml$/.test(file))!;
    const rows = Array.from(
      { length: 100_000 },
      (_, index) =>
        `<row r="${index + 1}"><c r="A${index + 1}" t="inlineStr"><is><t>alumno${index}@example.com</t></is></c></row>`,
    );
    // broken XML after the rows: a reader that stops at the limit never reaches it, one that reads it all fails
    files[sheetPath] = strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join('')}<row r="x"><c><</sheetData></worksheet>`,
    );
    const dataBase64 = Buffer.from(zipSync(files)).toString('base64');
    const started = Date.now();
    const xlsx = await previewOf({ format: 'xlsx', fileName: 'alumnos.xlsx', dataBase64 });
    expect(xlsx.statusCode, xlsx.body).toBe(413);
    expect(Date.now() - started).toBeLessThan(5000);
    const csv = await previewOf({
      format: 'csv',
      fileName: 'alumnos.csv',
      dataBase64: Buffer.from(
        rows
          .slice(0, 20_001)
          .map((_, index) => `a${index}@example.com`)
          .join('\n'),
      ).toString('base64'),
    });
    expect(csv.statusCode).toBe(413);
    expect(xlsx.json()).toEqual(csv.json());
    expect(xlsx.json().message).toBe(errorMessages.PAYLOAD_TOO_LARGE.message);
  });

  it('reads an xlsx sheet with gaps, numbers and inline text, resolving only the shared strings it uses', async () => {
    await createUser(t, { organizationId: university.id, email: 'hueco@uni.example.com' });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Alumnos');
    sheet.getCell('A1').value = 'Correo';
    sheet.getCell('A2').value = 42;
    sheet.getCell('B4').value = 'hueco@uni.example.com';
    sheet.getCell('A5').value = { richText: [{ text: 'HUECO@' }, { text: 'uni.example.com' }] };
    workbook.addWorksheet('Otra').addRow(['otra@uni.example.com']);
    const response = await previewOf({
      format: 'xlsx',
      fileName: 'alumnos.xlsx',
      dataBase64: Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64'),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as ImportPreview).lines.map((line) => [line.line, line.status, line.text])).toEqual([
      [1, 'invalid', 'Correo'],
      [2, 'invalid', '42'],
      [3, 'blank', ''],
      [4, 'ok', 'hueco@uni.example.com'],
      [5, 'duplicate', 'HUECO@uni.example.com'],
    ]);
  });

  it('refuses a file that is not a spreadsheet', async () => {
    const response = await previewOf({
      format: 'xlsx',
      fileName: 'x.xlsx',
      dataBase64: Buffer.from('hola').toString('base64'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('FILE_FORMAT');
  });
});
