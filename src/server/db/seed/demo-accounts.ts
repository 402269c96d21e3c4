import type { users } from '#server/db/schema/index.ts';
import type { AccountType } from '#shared/accounts/accounts.rules.ts';

export const demoPassword = 'Demo1234';

const dayMs = 86_400_000;

export type DemoRole = 'basic' | 'premium' | 'legacy' | 'admin' | 'classroomAdmin' | 'diplomaAdmin';

type AccountValues = Partial<Omit<typeof users.$inferInsert, 'id' | 'email' | 'name' | 'userNumber'>>;

export type DemoAccount = {
  role: DemoRole;
  email: string;
  name: string;
  type: AccountType;
  /** Column values for accounts.createAccount; dates are relative to `now`. */
  values(now: Date): AccountValues;
};

const mexico = { country: 'México', emailVerified: true } as const;

/** The demo accounts printed at start; every one signs in with demoPassword. */
export const demoAccounts: readonly DemoAccount[] = [
  {
    role: 'basic',
    email: 'basico@demo.cxvet.com',
    name: 'Ana Básica',
    type: 'Gratis',
    values: () => ({
      ...mexico,
      type: 'Gratis',
      paymentStatus: 'BIEN',
      annualPlan: false,
      paymentDay: null,
      subscriptionId: null,
      terminationDate: null,
      city: 'Ciudad de México',
      phoneNumber: '+525512345678',
      homeUniversity: 'Universidad Nacional Autónoma de México',
      promoMail: true,
      newsMail: true,
    }),
  },
  {
    role: 'premium',
    email: 'premium@demo.cxvet.com',
    name: 'Pablo Premium',
    type: 'Premium',
    values: (now) => ({
      ...mexico,
      type: 'Premium',
      paymentStatus: 'BIEN',
      annualPlan: false,
      paymentDay: new Date(now.getTime() - 10 * dayMs),
      subscriptionId: 'DEMO-SUB',
      terminationDate: null,
      city: 'Guadalajara',
      phoneNumber: '+523312345678',
      homeUniversity: 'Universidad de Guadalajara',
      promoMail: true,
      newsMail: false,
    }),
  },
  {
    role: 'legacy',
    email: 'legacy@demo.cxvet.com',
    name: 'Lucía Legacy',
    type: 'Legacy',
    values: (now) => ({
      ...mexico,
      type: 'Legacy',
      paymentStatus: 'BIEN',
      annualPlan: false,
      paymentDay: null,
      subscriptionId: null,
      terminationDate: new Date(now.getTime() + 365 * dayMs),
      city: 'Monterrey',
      phoneNumber: '+528112345678',
      homeUniversity: 'Universidad Autónoma de Nuevo León',
      promoMail: false,
      newsMail: true,
    }),
  },
  {
    // administers the demo university's aula; a Basic member of that university
    role: 'classroomAdmin',
    email: 'aula@demo.cxvet.com',
    name: 'Alicia Aula',
    type: 'Gratis',
    values: () => ({
      ...mexico,
      type: 'Gratis',
      paymentStatus: 'BIEN',
      annualPlan: false,
      paymentDay: null,
      subscriptionId: null,
      terminationDate: null,
      city: 'Querétaro',
      phoneNumber: '+524421234567',
      homeUniversity: 'Universidad Veterinaria del Centro',
      promoMail: false,
      newsMail: false,
    }),
  },
  {
    role: 'admin',
    email: 'admin@demo.cxvet.com',
    name: 'Administrador Demo',
    type: 'Admin',
    values: () => ({
      ...mexico,
      type: 'Admin',
      paymentStatus: 'BIEN',
      annualPlan: false,
      paymentDay: null,
      subscriptionId: null,
      terminationDate: null,
      city: 'Ciudad de México',
      phoneNumber: '+525587654321',
      promoMail: false,
      newsMail: false,
    }),
  },
  {
    // administers the CxVet demo diploma (/administrar-diplomado)
    role: 'diplomaAdmin',
    email: 'diplomado@demo.cxvet.com',
    name: 'Diana Diplomados',
    type: 'Premium',
    values: (now) => ({
      ...mexico,
      type: 'Premium',
      paymentStatus: 'BIEN',
      annualPlan: true,
      paymentDay: new Date(now.getTime() - 5 * dayMs),
      subscriptionId: 'MANUAL',
      terminationDate: null,
      city: 'Puebla',
      phoneNumber: '+522221234567',
      homeUniversity: 'Benemérita Universidad Autónoma de Puebla',
      promoMail: false,
      newsMail: false,
    }),
  },
];
