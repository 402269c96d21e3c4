import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Browser } from '@playwright/test';
import { storageKeys } from '../src/web/lib/storage-keys.ts';
import { expect, loginAs, signUpByApi } from './fixtures.ts';

const demoFile = (name: string) => path.join(process.cwd(), 'assets', 'demo', name);
const password = 'Secreta123';

/** The Admin's API in a context of its own. */
export async function adminRequest(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await loginAs(page, 'admin');
  return { request: page.request, context };
}

/** A new Basic member signed in on a browser context of their own (nobody else's spec depends on it). */
export async function freshBasicMember(browser: Browser, baseURL: string, name: string) {
  const context = await browser.newContext({ baseURL, locale: 'es-MX' });
  await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  const page = await context.newPage();
  const email = `diplomado-${randomUUID().slice(0, 8)}@e2e.cxvet.com`;
  await signUpByApi(page, { email, name, password }, baseURL);
  const me = (await (await page.request.get('/api/me')).json()) as { user: { id: string } };
  return { page, context, userId: me.user.id, email };
}

/** A new member made Premium for a year by an Admin. */
export async function freshPremiumMember(browser: Browser, baseURL: string, admin: APIRequestContext, name: string) {
  const member = await freshBasicMember(browser, baseURL, name);
  const upgrade = await admin.post('/api/admin/manual-premium/upgrade', {
    headers: { origin: new URL(baseURL).origin },
    data: { userId: member.userId, period: 'year' },
  });
  expect(upgrade.status(), await upgrade.text()).toBeLessThan(300);
  return member;
}

async function upload(
  admin: APIRequestContext,
  origin: string,
  target: string,
  id: string,
  file: string,
  type: string,
) {
  const response = await admin.post(`/api/admin/uploads?target=${target}&recordId=${id}`, {
    headers: { origin },
    multipart: { file: { name: path.basename(file), mimeType: type, buffer: fs.readFileSync(demoFile(file)) } },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { key: string }).key;
}

const examQuestions = [
  {
    question: '¿Qué abordaje se usa en una enterotomía?',
    answers: ['Laparotomía por línea media', 'Toracotomía'],
    correctAnswer: 0,
  },
  {
    question: '¿Qué sutura se prefiere en intestino?',
    answers: ['Seda trenzada', 'Monofilamento absorbible'],
    correctAnswer: 1,
  },
];

/** An active CxVet diploma of two linked videos and one exam, with `memberId` enrolled; built through the Admin API. */
export async function buildCxVetDiploma(admin: APIRequestContext, origin: string, title: string, memberId: string) {
  const id = randomUUID();
  const headers = { origin };
  const saved = await admin.put(`/api/admin/diplomas/${id}`, {
    headers,
    data: {
      title,
      descriptionHtml: '<p>Diplomado de prueba de extremo a extremo.</p>',
      previewImage: await upload(admin, origin, 'diploma-preview-image', id, 'preview-azul.jpg', 'image/jpeg'),
      previewPdf: await upload(admin, origin, 'diploma-preview-pdf', id, 'guia.pdf', 'application/pdf'),
      certificateImage: await upload(admin, origin, 'diploma-certificate', id, 'certificado.jpg', 'image/jpeg'),
      cost: '0.00',
      kind: 'CxVet',
      organizationId: null,
      adminEmail: '',
      isTest: false,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const options = (await (await admin.get('/api/admin/diplomas/options')).json()) as { procedures: { id: string }[] };
  for (const procedure of options.procedures.slice(0, 2)) {
    const linked = await admin.post(`/api/admin/diplomas/${id}/videos`, {
      headers,
      data: { procedureId: procedure.id },
    });
    expect(linked.status(), await linked.text()).toBe(200);
  }
  const videos = (await (await admin.get(`/api/admin/diplomas/${id}/videos`)).json()) as { items: { id: string }[] };
  const examId = randomUUID();
  const exam = await admin.put(`/api/admin/diplomas/${id}/exams/${examId}`, {
    headers,
    data: { title: 'Examen final', videoId: videos.items[0]!.id, questions: examQuestions },
  });
  expect(exam.status(), await exam.text()).toBe(200);
  const assigned = await admin.put(`/api/admin/diplomas/${id}/users/${memberId}`, {
    headers,
    data: { assigned: true },
  });
  expect(assigned.status(), await assigned.text()).toBe(200);
  const activated = await admin.put(`/api/admin/diplomas/${id}/active`, { headers, data: { isActive: true } });
  expect(activated.status(), await activated.text()).toBe(200);
  return { id, examId };
}

/** The member answers every question of the exam right and submits it through the member API. */
export async function passExam(member: APIRequestContext, origin: string, diplomaId: string, examId: string) {
  const exam = (await (await member.get(`/api/diplomas/${diplomaId}/exams/${examId}`)).json()) as {
    questions: { id: string; question: string }[];
  };
  const answers = exam.questions.map((question) => ({
    questionId: question.id,
    answer: examQuestions.find((known) => known.question === question.question)!.correctAnswer,
  }));
  const submitted = await member.post(`/api/diplomas/${diplomaId}/exams/${examId}/submit`, {
    headers: { origin },
    data: { answers },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
}
