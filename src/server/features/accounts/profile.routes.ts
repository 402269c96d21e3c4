import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '#server/plugins/authorization.ts';
import { profileSchema } from '#shared/accounts/profile.schemas.ts';
import {
  emailAvailableQuerySchema,
  emailAvailableResponseSchema,
  profileUpdateSchema,
  signUpResponseSchema,
  signUpSchema,
  universitySuggestionsQuerySchema,
  universitySuggestionsResponseSchema,
} from '#shared/accounts/signup.schemas.ts';
import type { MembershipService } from '#server/features/membership/membership.service.ts';
import { forwardCookies } from './auth-bridge.ts';
import type { ProfileService } from './profile.service.ts';
import type { SignUpService } from './signup.service.ts';
import type { AccountsService } from './accounts.service.ts';
import { AppError } from '#shared/errors.ts';
import { hasPremiumAccess } from '#shared/accounts/accounts.rules.ts';

/** How recent a sign-in must be to change the e-mail or password. */
const freshSessionMs = 15 * 60_000;

/** Sign-up, its live checks, and the member's own profile. */
export function registerSignUpAndProfileRoutes(
  app: FastifyInstance,
  deps: {
    signUp: SignUpService;
    profile: ProfileService;
    membership: MembershipService;
    accounts: AccountsService;
    /** Sign-ups per IP in 10 minutes (config.signUpsPerTenMinutes). */
    signUpsPerTenMinutes: number;
  },
) {
  const { signUp, profile, membership, accounts } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/account/signup',
    {
      schema: { body: signUpSchema, response: { 200: signUpResponseSchema } },
      config: { rateLimit: { max: deps.signUpsPerTenMinutes, timeWindow: '10 minutes' } },
    },
    async (request, reply) => {
      const { response, setCookies } = await signUp.signUp(request, request.body);
      forwardCookies(reply, setCookies);
      return response;
    },
  );

  /** FINALIZAR for a Basic sign-up: the SIGNUP account e-mail. */
  api.post(
    '/api/account/signup/finish',
    { config: { rateLimit: { max: 5, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const user = await requireUser(request);
      await membership.sendAccountMail(user, 'SIGNUP', null);
      return reply.status(204).send();
    },
  );

  api.get(
    '/api/account/email-available',
    {
      schema: { querystring: emailAvailableQuerySchema, response: { 200: emailAvailableResponseSchema } },
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { available: await signUp.isEmailAvailable(request.query.email) };
    },
  );

  api.get(
    '/api/public-universities',
    {
      schema: { querystring: universitySuggestionsQuerySchema, response: { 200: universitySuggestionsResponseSchema } },
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    },
    async (request) => ({ universities: await signUp.suggestUniversities(request.query.q) }),
  );

  api.get('/api/profile', { schema: { response: { 200: profileSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const user = await requireUser(request);
    // Premium access (and so the certificates) ends on a date with no row changed: keyed by it
    return profile.getProfile(user, (load) =>
      accounts.keptWithSession(request, `profile:${String(hasPremiumAccess(user))}`, load),
    );
  });

  api.put(
    '/api/profile',
    { schema: { body: profileUpdateSchema, response: { 200: profileSchema } } },
    async (request) => {
      const user = await requireUser(request);
      // the browser re-logs in before this form; the server holds it to that for credential changes
      const changesCredentials = request.body.email.trim().toLowerCase() !== user.email || request.body.password !== '';
      const session = changesCredentials ? await accounts.currentSession(request) : null;
      if (changesCredentials && (!session || Date.now() - session.createdAt.getTime() > freshSessionMs)) {
        throw new AppError('REAUTH_REQUIRED');
      }
      // a new password signs out every other device; this one stays signed in
      const updated = await profile.updateProfile(user, request.body, { keepSessionId: session?.id ?? null });
      // this instance's remembered sessions of the account at once; the others through the users trigger's NOTIFY
      accounts.forgetAccount(user.id);
      return updated;
    },
  );
}
