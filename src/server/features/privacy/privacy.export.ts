import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  accountDeletions,
  analyticsEvents,
  bulkMailDeliveries,
  bulkMails,
  certificates,
  courseEvaluations,
  credits,
  classrooms,
  classroomUsers,
  classroomWarnings,
  consentEvents,
  contactMessages,
  fiscalProfiles,
  paymentCreditNotes,
  paymentFacturas,
  dataExports,
  diplomas,
  diplomaTransactions,
  diplomaUsers,
  diplomaVideoCompletions,
  diplomaVideos,
  examAnswers,
  examQuestions,
  examResults,
  exams,
  mailOutbox,
  organizations,
  paymentOrders,
  payments,
  paymentSubscriptions,
  sessions,
  users,
  procedures,
  watchPositions,
  watchedTime,
  favoriteProcedures,
} from '#server/db/schema/index.ts';

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/**
 * Everything the site holds about one member, read only by that member's id (or own e-mail address
 * for what is keyed by it): nothing of another person can enter.
 */
export async function collectMemberData(db: Db, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error('member not found');
  const [organization] = user.organizationId
    ? await db
        .select({ title: organizations.title })
        .from(organizations)
        .where(eq(organizations.id, user.organizationId))
    : [];
  const [
    consents,
    subscriptions,
    paymentRows,
    orders,
    facturaRows,
    creditNoteRows,
    fiscalRows,
    diplomaPurchases,
    sessionRows,
    classroomRows,
    warnings,
    administeredClassrooms,
    diplomaRows,
    administeredDiplomas,
    completions,
    results,
    answers,
    certificateRows,
    viewing,
    mails,
    bulk,
    contact,
    exportsRequested,
  ] = await Promise.all([
    db.select().from(consentEvents).where(eq(consentEvents.userId, userId)).orderBy(asc(consentEvents.at)),
    db
      .select()
      .from(paymentSubscriptions)
      .where(eq(paymentSubscriptions.userId, userId))
      .orderBy(asc(paymentSubscriptions.createdAt)),
    db.select().from(payments).where(eq(payments.userId, userId)).orderBy(asc(payments.occurredAt)),
    db.select().from(paymentOrders).where(eq(paymentOrders.userId, userId)).orderBy(asc(paymentOrders.createdAt)),
    db
      .select({ factura: paymentFacturas, paymentId: payments.providerPaymentId })
      .from(paymentFacturas)
      .innerJoin(payments, eq(payments.id, paymentFacturas.paymentId))
      .where(eq(payments.userId, userId)),
    db
      .select({ note: paymentCreditNotes, paymentId: payments.providerPaymentId })
      .from(paymentCreditNotes)
      .innerJoin(payments, eq(payments.id, paymentCreditNotes.paymentId))
      .where(eq(payments.userId, userId))
      .orderBy(asc(paymentCreditNotes.createdAt)),
    db.select().from(fiscalProfiles).where(eq(fiscalProfiles.userId, userId)),
    db
      .select({ transaction: diplomaTransactions, diploma: diplomas.title })
      .from(diplomaTransactions)
      .leftJoin(diplomas, eq(diplomas.id, diplomaTransactions.diplomaId))
      .where(eq(diplomaTransactions.userId, userId))
      .orderBy(asc(diplomaTransactions.createdAt)),
    db
      .select({
        createdAt: sessions.createdAt,
        expiresAt: sessions.expiresAt,
        ipAddress: sessions.ipAddress,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId)),
    db
      .select({ title: classrooms.title, expiresAt: classrooms.expiresAt })
      .from(classroomUsers)
      .innerJoin(classrooms, eq(classrooms.id, classroomUsers.classroomId))
      .where(eq(classroomUsers.userId, userId)),
    db
      .select({ title: classrooms.title, kind: classroomWarnings.kind, warnedAt: classroomWarnings.warnedAt })
      .from(classroomWarnings)
      .innerJoin(classrooms, eq(classrooms.id, classroomWarnings.classroomId))
      .where(eq(classroomWarnings.userId, userId)),
    db.select({ title: classrooms.title }).from(classrooms).where(eq(classrooms.adminUserId, userId)),
    db
      .select({
        title: diplomas.title,
        beganAt: diplomaUsers.beganAt,
        completedAt: diplomaUsers.completedAt,
        certificateAt: diplomaUsers.certificateAt,
      })
      .from(diplomaUsers)
      .innerJoin(diplomas, eq(diplomas.id, diplomaUsers.diplomaId))
      .where(eq(diplomaUsers.userId, userId)),
    db.select({ title: diplomas.title }).from(diplomas).where(eq(diplomas.adminUserId, userId)),
    db
      .select({ diploma: diplomas.title, video: diplomaVideos.title, completedAt: diplomaVideoCompletions.completedAt })
      .from(diplomaVideoCompletions)
      .innerJoin(diplomaVideos, eq(diplomaVideos.id, diplomaVideoCompletions.videoId))
      .innerJoin(diplomas, eq(diplomas.id, diplomaVideos.diplomaId))
      .where(eq(diplomaVideoCompletions.userId, userId)),
    db
      .select({ diploma: diplomas.title, exam: exams.title, result: examResults })
      .from(examResults)
      .innerJoin(exams, eq(exams.id, examResults.examId))
      .innerJoin(diplomas, eq(diplomas.id, exams.diplomaId))
      .where(eq(examResults.userId, userId)),
    db
      .select({
        exam: exams.title,
        question: examQuestions.question,
        options: examQuestions.answers,
        answer: examAnswers.answer,
        answeredAt: examAnswers.answeredAt,
      })
      .from(examAnswers)
      .innerJoin(examQuestions, eq(examQuestions.id, examAnswers.questionId))
      .innerJoin(exams, eq(exams.id, examQuestions.examId))
      .where(eq(examAnswers.userId, userId)),
    db.select().from(certificates).where(eq(certificates.userId, userId)).orderBy(asc(certificates.issuedAt)),
    db
      .select({ category: analyticsEvents.category, label: analyticsEvents.label, at: analyticsEvents.createdAt })
      .from(analyticsEvents)
      .where(eq(analyticsEvents.userId, userId))
      .orderBy(asc(analyticsEvents.createdAt)),
    // subjects and dates only: old bodies may hold one-time links (password resets)
    db
      .select({ subject: mailOutbox.subject, at: mailOutbox.createdAt })
      .from(mailOutbox)
      .where(eq(mailOutbox.to, user.email))
      .orderBy(asc(mailOutbox.createdAt)),
    db
      .select({ subject: bulkMails.subject, sentAt: bulkMailDeliveries.sentAt })
      .from(bulkMailDeliveries)
      .innerJoin(bulkMails, eq(bulkMails.id, bulkMailDeliveries.bulkMailId))
      .where(eq(bulkMailDeliveries.userId, userId)),
    db
      .select({
        name: contactMessages.name,
        subject: contactMessages.subject,
        message: contactMessages.message,
        at: contactMessages.createdAt,
      })
      .from(contactMessages)
      .where(eq(contactMessages.email, user.email))
      .orderBy(asc(contactMessages.createdAt)),
    db
      .select({ requestedAt: dataExports.requestedAt, status: dataExports.status })
      .from(dataExports)
      .where(and(eq(dataExports.userId, userId), inArray(dataExports.status, ['LISTA', 'EXPIRADA', 'PENDIENTE'])))
      .orderBy(asc(dataExports.requestedAt)),
  ]);
  const [deletion] = await db
    .select({ at: accountDeletions.createdAt })
    .from(accountDeletions)
    .where(eq(accountDeletions.userId, userId));
  const [creditRows, evaluations] = await Promise.all([
    db.select().from(credits).where(eq(credits.userId, userId)).orderBy(asc(credits.earnedAt)),
    db
      .select({ diploma: diplomas.title, evaluation: courseEvaluations })
      .from(courseEvaluations)
      .leftJoin(diplomas, eq(diplomas.id, courseEvaluations.diplomaId))
      .where(eq(courseEvaluations.userId, userId)),
  ]);
  const [positions, favorites, watched] = await Promise.all([
    db
      .select({ procedure: procedures.name, position: watchPositions })
      .from(watchPositions)
      .innerJoin(procedures, eq(procedures.id, watchPositions.procedureId))
      .where(eq(watchPositions.userId, userId))
      .orderBy(asc(watchPositions.updatedAt)),
    db
      .select({ procedure: procedures.name, at: favoriteProcedures.createdAt })
      .from(favoriteProcedures)
      .innerJoin(procedures, eq(procedures.id, favoriteProcedures.procedureId))
      .where(eq(favoriteProcedures.userId, userId))
      .orderBy(asc(favoriteProcedures.createdAt)),
    // the time actually played, the rule behind 'Visto' and a diploma video's completion (decision 010)
    db
      .select({
        procedure: procedures.name,
        diplomaVideo: diplomaVideos.title,
        diploma: diplomas.title,
        time: watchedTime,
      })
      .from(watchedTime)
      .leftJoin(procedures, eq(procedures.id, watchedTime.procedureId))
      .leftJoin(diplomaVideos, eq(diplomaVideos.id, watchedTime.diplomaVideoId))
      .leftJoin(diplomas, eq(diplomas.id, diplomaVideos.diplomaId))
      .where(eq(watchedTime.userId, userId))
      .orderBy(asc(watchedTime.lastSavedAt)),
  ]);

  return {
    generatedAt: new Date().toISOString(),
    description: 'Todos los datos que CxVet guarda sobre tu cuenta (derechos ARCO, LFPDPPP).',
    profile: {
      id: user.id,
      userNumber: user.userNumber,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      phoneNumber: user.phoneNumber,
      country: user.country,
      city: user.city,
      homeUniversity: user.homeUniversity,
      licenceNumber: user.licenceNumber,
      organization: organization?.title ?? null,
      createdAt: iso(user.createdAt),
      updatedAt: iso(user.updatedAt),
      deletedAt: iso(deletion?.at),
    },
    preferences: { promoMail: user.promoMail, newsMail: user.newsMail },
    consents: consents.map((row) => ({ kind: row.kind, given: row.given, source: row.source, at: iso(row.at) })),
    membership: {
      type: user.type,
      paymentStatus: user.paymentStatus,
      annualPlan: user.annualPlan,
      paymentDay: iso(user.paymentDay),
      terminationDate: iso(user.terminationDate),
      subscriptionId: user.subscriptionId,
    },
    subscriptions: subscriptions.map((row) => ({
      provider: row.provider,
      subscriptionId: row.providerSubscriptionId,
      plan: row.plan,
      state: row.state,
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
    })),
    payments: paymentRows.map((row) => ({
      provider: row.provider,
      paymentId: row.providerPaymentId,
      kind: row.kind,
      result: row.result,
      amount: (row.amountCents / 100).toFixed(2),
      currency: row.currency,
      description: row.description,
      at: iso(row.occurredAt),
    })),
    orders: orders.map((row) => ({
      provider: row.provider,
      orderId: row.providerOrderId,
      amount: (row.amountCents / 100).toFixed(2),
      currency: row.currency,
      description: row.description,
      status: row.status,
      createdAt: iso(row.createdAt),
    })),
    fiscalData:
      fiscalRows.map((row) => ({
        rfc: row.rfc,
        legalName: row.legalName,
        taxSystem: row.taxSystem,
        cfdiUse: row.cfdiUse,
        zip: row.zip,
        updatedAt: iso(row.updatedAt),
      }))[0] ?? null,
    facturas: facturaRows.map(({ factura, paymentId }) => ({
      paymentId,
      paymentForm: factura.paymentForm,
      selfInvoiceUrl: factura.selfInvoiceUrl,
      invoiceUuid: factura.invoiceUuid,
      rfc: factura.invoiceRfc,
      status: factura.invoiceStatus,
      cancellationMotive: factura.cancellationMotive,
    })),
    creditNotes: creditNoteRows.map(({ note, paymentId }) => ({
      paymentId,
      amount: (note.amountCents / 100).toFixed(2),
      invoiceUuid: note.invoiceUuid,
      status: note.status,
      createdAt: iso(note.createdAt),
    })),
    diplomaPurchases: diplomaPurchases.map(({ transaction, diploma }) => ({
      diploma,
      amount: (transaction.amountCents / 100).toFixed(2),
      currency: transaction.currency,
      status: transaction.status,
      createdAt: iso(transaction.createdAt),
    })),
    sessions: sessionRows.map((row) => ({
      signedInAt: iso(row.createdAt),
      expiresAt: iso(row.expiresAt),
      ipAddress: row.ipAddress,
      userAgent: row.userAgent,
    })),
    classrooms: classroomRows.map((row) => ({ title: row.title, expiresAt: iso(row.expiresAt) })),
    classroomWarnings: warnings.map((row) => ({ classroom: row.title, kind: row.kind, warnedAt: iso(row.warnedAt) })),
    administeredClassrooms: administeredClassrooms.map((row) => row.title),
    diplomas: diplomaRows.map((row) => ({
      title: row.title,
      beganAt: iso(row.beganAt),
      completedAt: iso(row.completedAt),
      certificateAt: iso(row.certificateAt),
    })),
    administeredDiplomas: administeredDiplomas.map((row) => row.title),
    diplomaVideosCompleted: completions.map((row) => ({
      diploma: row.diploma,
      video: row.video,
      completedAt: iso(row.completedAt),
    })),
    examResults: results.map((row) => ({
      diploma: row.diploma,
      exam: row.exam,
      scorePercent: row.result.scorePercent,
      correct: row.result.correctCount,
      questions: row.result.questionCount,
      passed: row.result.passed,
      completedAt: iso(row.result.completedAt),
    })),
    examAnswers: answers.map((row) => ({
      exam: row.exam,
      question: row.question,
      answer: row.options[row.answer] ?? row.answer,
      answeredAt: iso(row.answeredAt),
    })),
    certificates: certificateRows.map((row) => ({
      diploma: row.diplomaTitle,
      folio: row.folio,
      holderName: row.holderName,
      issuer: row.issuerName,
      verificationCode: row.verificationCode,
      issuedAt: iso(row.issuedAt),
      revokedAt: iso(row.revokedAt),
    })),
    continuingEducationCredits: creditRows.map((row) => ({
      title: row.title,
      holderName: row.holderName,
      licenceNumber: row.licenceNumber,
      hours: row.hours,
      category: row.category,
      deliveryMethod: row.deliveryMethod,
      bodies: row.bodies,
      startedAt: iso(row.startedAt),
      earnedAt: iso(row.earnedAt),
      proof: row.proof,
      revokedAt: iso(row.revokedAt),
    })),
    courseEvaluations: evaluations.map(({ diploma, evaluation }) => ({
      diploma,
      answers: evaluation.answers,
      comment: evaluation.comment,
      submittedAt: iso(evaluation.submittedAt),
    })),
    viewingHistory: viewing.map((row) => ({ category: row.category, label: row.label, at: iso(row.at) })),
    watchPositions: positions.map(({ procedure, position }) => ({
      procedure,
      positionSeconds: position.positionSeconds,
      durationSeconds: position.durationSeconds,
      watchedAt: iso(position.watchedAt),
      updatedAt: iso(position.updatedAt),
    })),
    watchedTime: watched.map(({ procedure, diplomaVideo, diploma, time }) => ({
      procedure,
      diploma,
      diplomaVideo,
      durationSeconds: time.durationSeconds,
      watchedSeconds: time.watchedSeconds,
      spans: time.spans,
      watchedAt: iso(time.watchedAt),
      lastSavedAt: iso(time.lastSavedAt),
    })),
    favorites: favorites.map((row) => ({ procedure: row.procedure, at: iso(row.at) })),
    mailsSent: [
      ...mails.map((row) => ({ subject: row.subject, at: iso(row.at) })),
      ...bulk.map((row) => ({ subject: row.subject, at: iso(row.sentAt) })),
    ],
    contactMessages: contact.map((row) => ({
      name: row.name,
      subject: row.subject,
      message: row.message,
      at: iso(row.at),
    })),
    dataExports: exportsRequested.map((row) => ({ requestedAt: iso(row.requestedAt), status: row.status })),
  };
}

export type MemberData = Awaited<ReturnType<typeof collectMemberData>>;

/** A streamed ZIP: datos.json, LEEME.txt and the certificate PDFs (already compressed, stored as they are). */
export function zipMemberData(data: MemberData, pdfs: { fileName: string; bytes: Uint8Array }[]): Readable {
  const output = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) return void output.destroy(error);
    output.write(chunk);
    if (final) output.end();
  });
  const add = (name: string, bytes: Uint8Array, compress: boolean) => {
    const entry = compress ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    zip.add(entry);
    entry.push(bytes, true);
  };
  const encoder = new TextEncoder();
  // runs on the next turn so the caller can pipe the stream first
  setImmediate(() => {
    try {
      add(
        'LEEME.txt',
        encoder.encode(
          'Datos personales que CxVet guarda sobre tu cuenta.\r\n\r\n' +
            'datos.json: perfil, consentimientos con sus fechas, membresía y pagos, aulas, diplomados, exámenes, constancias, historial de visualización, avance en los videos y favoritos, correos enviados y mensajes de contacto.\r\n' +
            'constancias/: tus constancias vigentes en PDF.\r\n',
        ),
        true,
      );
      add('datos.json', encoder.encode(JSON.stringify(data, null, 2)), true);
      for (const pdf of pdfs) add(`constancias/${pdf.fileName}`, pdf.bytes, false);
      zip.end();
    } catch (error) {
      output.destroy(error as Error);
    }
  });
  return output;
}
