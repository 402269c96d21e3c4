/**
 * LinkedIn's add-to-profile link for a certification (startTask=CERTIFICATION_NAME): the form opens filled with the
 * name, the issuing organisation, the issue month and year, the credential's URL and its id.
 */
export function linkedInCertificationUrl(input: {
  name: string;
  organizationName: string;
  issuedAt: string;
  certUrl: string;
  certId: string;
}): string {
  const issued = new Date(input.issuedAt);
  const params = new URLSearchParams({
    startTask: 'CERTIFICATION_NAME',
    name: input.name,
    organizationName: input.organizationName,
    issueYear: String(issued.getUTCFullYear()),
    issueMonth: String(issued.getUTCMonth() + 1),
    certUrl: input.certUrl,
    certId: input.certId,
  });
  return `https://www.linkedin.com/profile/add?${params.toString()}`;
}
