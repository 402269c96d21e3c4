import { randomUUID } from 'node:crypto';
import type { TestApp } from './test-app.ts';
import { testPublicUrl } from './test-app.ts';
import { Readable } from 'node:stream';
import {
  classroomProcedures,
  classroomUsers,
  classrooms,
  organizations,
  procedures,
  type users,
} from '#server/db/schema/index.ts';

export const testPassword = 'Secreta123';

type UserValues = Partial<Omit<typeof users.$inferInsert, 'id' | 'email' | 'name' | 'userNumber'>>;

/** An account of the given type with a known password. */
export async function createUser(t: TestApp, values: UserValues & { email?: string; name?: string } = {}) {
  const { email = `u-${randomUUID().slice(0, 8)}@example.com`, name = 'Usuario de Prueba', ...rest } = values;
  return t.app.services.accounts.createAccount({ name, email, password: testPassword, values: rest });
}

/** Signs in through the public endpoint and returns the Cookie header to send afterwards. */
export async function loginCookie(t: TestApp, email: string, password = testPassword): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/account/login',
    remoteAddress: randomTestIp(),
    headers: { origin: testPublicUrl },
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const cookies = response.headers['set-cookie'];
  const list = Array.isArray(cookies) ? cookies : cookies ? [cookies] : [];
  return list.map((cookie) => cookie.split(';')[0]).join('; ');
}

/** Creates an account of the type and returns its Cookie header. */
export async function signedInAs(t: TestApp, values: UserValues & { email?: string; name?: string } = {}) {
  const user = await createUser(t, values);
  return { user, cookie: await loginCookie(t, user.email) };
}

/** Each simulated client its own address, so the per-IP sign-in limit does not bleed between tests. */
export function randomTestIp(): string {
  const octet = () => Math.floor(Math.random() * 250) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

/** A procedure whose four files exist in storage; keys follow the spec's procedures/{id}/ folder. */
export async function createProcedure(t: TestApp, values: Partial<typeof procedures.$inferInsert> = {}) {
  const id = randomUUID();
  const folder = `procedures/${id}`;
  const files = {
    previewImage: `${folder}/1700000000000_preview.jpg`,
    demoVideo: `${folder}/1700000000000_demo.mp4`,
    fullVideo: `${folder}/1700000000000_video.mp4`,
    guidePdf: `${folder}/1700000000000_guia.pdf`,
  };
  for (const [field, key] of Object.entries(files)) {
    await t.storage.put(key, Readable.from([Buffer.from(`contenido de ${field} `.repeat(20))]));
  }
  const [row] = await t.db
    .insert(procedures)
    .values({ id, name: 'Cistotomía', detail: 'Detalle', species: 'Perro', type: 'Gratis', ...files, ...values })
    .returning();
  return row!;
}

/** An organization and an aula holding the given procedures. */
export async function createClassroom(
  t: TestApp,
  options: { procedureIds: string[]; userIds?: string[]; values?: Partial<typeof classrooms.$inferInsert> },
) {
  const [organization] = await t.db
    .insert(organizations)
    .values({ title: 'Universidad Prueba', type: 'Universidad' })
    .returning();
  const [classroom] = await t.db
    .insert(classrooms)
    .values({
      title: 'Aula de prueba',
      accessType: 'Acceso controlado',
      organizationType: 'Universidad',
      organizationId: organization!.id,
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
      ...options.values,
    })
    .returning();
  if (options.procedureIds.length > 0) {
    await t.db
      .insert(classroomProcedures)
      .values(options.procedureIds.map((procedureId) => ({ classroomId: classroom!.id, procedureId })));
  }
  if (options.userIds && options.userIds.length > 0) {
    await t.db.insert(classroomUsers).values(options.userIds.map((userId) => ({ classroomId: classroom!.id, userId })));
  }
  return classroom!;
}
