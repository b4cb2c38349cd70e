import DKIM from 'nodemailer/lib/dkim/index.js';

export interface DkimKey {
  domain: string;
  selector: string;
  privateKey: string;
}

/**
 * Signs a raw message with the sending domain's key (RFC 6376, relaxed/relaxed,
 * rsa-sha256) using nodemailer's signer. The DKIM-Signature header is prepended,
 * so the one blob that local recipients share is the same signed message that goes out.
 */
export async function dkimSign(raw: Buffer, key: DkimKey): Promise<Buffer> {
  const signer = new DKIM({ domainName: key.domain, keySelector: key.selector, privateKey: key.privateKey });
  const chunks: Buffer[] = [];
  for await (const chunk of signer.sign(raw)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
