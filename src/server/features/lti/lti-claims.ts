/** Claim names and values of LTI 1.3, Deep Linking 2.0, AGS 2.0 and NRPS 2.0 (IMS / 1EdTech). */
const lti = 'https://purl.imsglobal.org/spec/lti/claim/';
const dl = 'https://purl.imsglobal.org/spec/lti-dl/claim/';

export const claims = {
  messageType: `${lti}message_type`,
  version: `${lti}version`,
  deploymentId: `${lti}deployment_id`,
  targetLinkUri: `${lti}target_link_uri`,
  resourceLink: `${lti}resource_link`,
  roles: `${lti}roles`,
  context: `${lti}context`,
  custom: `${lti}custom`,
  deepLinkingSettings: `${dl}deep_linking_settings`,
  contentItems: `${dl}content_items`,
  deepLinkingData: `${dl}data`,
  deepLinkingMessage: `${dl}msg`,
  agsEndpoint: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
} as const;

export const scopes = {
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  memberships: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
} as const;

export const messageTypes = {
  resourceLink: 'LtiResourceLinkRequest',
  deepLinking: 'LtiDeepLinkingRequest',
  deepLinkingResponse: 'LtiDeepLinkingResponse',
} as const;

const instructorRoles = [
  'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  'http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator',
  'http://purl.imsglobal.org/vocab/lis/v2/membership#ContentDeveloper',
  'http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant',
];

/** An instructor, course administrator or designer of the context; a short role name ('Instructor') counts too. */
export function isInstructor(roles: readonly string[]): boolean {
  return roles.some((role) => instructorRoles.includes(role) || role === 'Instructor');
}

/** What a link opens: written into the custom claim by deep linking, read back at launch. */
export const targetKinds = ['aula', 'procedimiento', 'diplomado'] as const;
export type TargetKind = (typeof targetKinds)[number];
