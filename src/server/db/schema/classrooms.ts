import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { classroomAccessTypeEnum, classroomWarningKindEnum, organizationTypeEnum } from './enums.ts';
import { organizations } from './organizations.ts';
import { users } from './accounts.ts';
import { procedures } from './catalog.ts';

export const classrooms = pgTable(
  'classrooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    accessType: classroomAccessTypeEnum('access_type').notNull(),
    organizationType: organizationTypeEnum('organization_type').notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    isActive: boolean('is_active').notNull().default(true),
    adminUserId: text('admin_user_id').references(() => users.id, { onDelete: 'set null' }),
    previewImage: text('preview_image'),
    previewPdf: text('preview_pdf'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('classrooms_admin_user_id_idx').on(table.adminUserId)],
);

export const classroomUsers = pgTable(
  'classroom_users',
  {
    classroomId: uuid('classroom_id')
      .notNull()
      .references(() => classrooms.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.classroomId, table.userId] }),
    index('classroom_users_user_id_idx').on(table.userId),
  ],
);

export const classroomProcedures = pgTable(
  'classroom_procedures',
  {
    classroomId: uuid('classroom_id')
      .notNull()
      .references(() => classrooms.id, { onDelete: 'cascade' }),
    procedureId: uuid('procedure_id')
      .notNull()
      .references(() => procedures.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.classroomId, table.procedureId] }),
    index('classroom_procedures_procedure_id_idx').on(table.procedureId),
  ],
);

/** Expiry warnings already shown (spec: threeDayWarning / tenDayWarning). */
export const classroomWarnings = pgTable(
  'classroom_warnings',
  {
    classroomId: uuid('classroom_id')
      .notNull()
      .references(() => classrooms.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: classroomWarningKindEnum('kind').notNull(),
    warnedAt: timestamp('warned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.classroomId, table.userId, table.kind] })],
);
