import type { DomainVerification } from '#contract/index.js';

/**
 * What an owner publishes to prove a domain is theirs (ownership verification, beyond the spec:
 * without it anyone could subscribe to a stranger's site and publish a status page about it).
 * Any one of the three proves it: a DNS TXT record, a meta tag on the home page, or a file.
 */

export const verificationRecordPrefix = '_conformly-verification';
export const verificationMetaName = 'conformly-verification';
export const verificationFilePath = '/.well-known/conformly-verification.txt';

/** The value published in each place: the same for the TXT record, the meta tag and the file. */
export const verificationValue = (token: string) => `conformly-verification=${token}`;

export type VerificationInstructions = Pick<DomainVerification, 'dns' | 'meta' | 'file'>;

export function verificationInstructions(domain: string, token: string): VerificationInstructions {
  const value = verificationValue(token);
  return {
    dns: { name: `${verificationRecordPrefix}.${domain}`, value },
    meta: { tag: `<meta name="${verificationMetaName}" content="${value}">` },
    file: { url: `https://${domain}${verificationFilePath}`, content: value },
  };
}
