import * as vc from '@digitalbazaar/vc';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite as eddsaRdfc2022 } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import type { CredentialsKey } from './signing-key.ts';
import { bundledContexts, refusingLoader } from './contexts.ts';

export type Credential = Record<string, unknown>;

/** did:web of PUBLIC_URL's host (a port is written %3A); its document is at /.well-known/did.json. */
function didWebOf(publicUrl: string): string {
  return `did:web:${encodeURIComponent(new URL(publicUrl).host)}`;
}

/** The issuer's public keys as Multikey verification methods, the current one first. */
function verificationMethod(did: string, publicKeyMultibase: string) {
  return { id: `${did}#${publicKeyMultibase}`, type: 'Multikey', controller: did, publicKeyMultibase };
}

export type VerificationOutcome =
  | { valid: true }
  | { valid: false; reason: 'signature' | 'unknown-key' | 'malformed' }
  | { valid: false; reason: 'revoked'; statusListCredential: string; statusListIndex: number };

/**
 * One issuer per server: signs with CREDENTIALS_SIGNING_KEY as eddsa-rdfc-2022 Data Integrity proofs and verifies
 * offline, with a document loader that holds only the bundled contexts, our DID document and our status lists.
 */
export async function createIssuer(input: {
  publicUrl: string;
  key: CredentialsKey;
  /** Our status list credential at a URL of ours, read from the database rather than over HTTP. */
  statusList: (url: string) => Promise<Credential | null>;
}) {
  const did = didWebOf(input.publicUrl);
  const keyPair = await Ed25519Multikey.generate({ controller: did, seed: input.key.seed });
  const methods = [keyPair.publicKeyMultibase, ...input.key.previousPublicKeys]
    .filter((key, index, all) => all.indexOf(key) === index)
    .map((publicKey) => verificationMethod(did, publicKey));
  const didDocument = {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((method) => method.id),
  };
  const ours = new Map<string, unknown>([[did, didDocument]]);
  for (const method of methods) {
    ours.set(method.id, { '@context': 'https://w3id.org/security/multikey/v1', ...method });
  }
  const documentLoader = refusingLoader(new Map([...bundledContexts, ...ours]), async (url) => input.statusList(url));

  async function sign(credential: Credential): Promise<Credential> {
    const suite = new DataIntegrityProof({ signer: keyPair.signer(), cryptosuite: eddsaRdfc2022 });
    return vc.issue({ credential, suite, documentLoader });
  }

  async function verify(credential: unknown): Promise<VerificationOutcome> {
    if (!isCredential(credential)) return { valid: false, reason: 'malformed' };
    const proof = credential.proof as { verificationMethod?: unknown } | undefined;
    if (typeof proof?.verificationMethod !== 'string' || !ours.has(proof.verificationMethod)) {
      return { valid: false, reason: 'unknown-key' };
    }
    const suite = new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 });
    const result = await vc.verifyCredential({
      credential,
      suite,
      documentLoader,
      checkStatus: (options) => revocationOf({ ...options, suite, documentLoader }),
    });
    if (result.verified) return { valid: true };
    if (result.statusResult?.revoked) {
      const status = credential.credentialStatus as { statusListCredential: string; statusListIndex: string };
      return {
        valid: false,
        reason: 'revoked',
        statusListCredential: status.statusListCredential,
        statusListIndex: Number(status.statusListIndex),
      };
    }
    return { valid: false, reason: result.statusResult ? 'malformed' : 'signature' };
  }

  return { did, didDocument, documentLoader, sign, verify };
}

/** The library verifies the status list and reads the bit; a set bit (status true) is a revocation. */
async function revocationOf(options: Parameters<typeof checkStatus>[0]) {
  const result = await checkStatus(options);
  if (!result.verified) return result;
  const revoked = (result.results ?? []).some((entry) => entry.status);
  return { verified: !revoked, revoked };
}

function isCredential(value: unknown): value is Credential {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'proof' in value;
}

export type Issuer = Awaited<ReturnType<typeof createIssuer>>;
