import type { ComposeMode, Signature } from '@mailwing/shared';
import { signatureApi } from '../api/mail-texts';
import type { SignaturePlace } from './signature-block';

/** The mailbox a mail goes out from: the current one, or a bound one with its own token. */
export interface SenderIdentity {
  email: string;
  token: string;
}

/** Where compose's modes put a signature; a reopened draft already has its own (null). */
export function signaturePlace(mode: ComposeMode | null): SignaturePlace | null {
  if (mode === null) return 'new';
  if (mode === 'edit') return null;
  return mode === 'forward' ? 'forward' : 'reply';
}

/**
 * The one place compose asks which signature to use: the sender's default for new mail,
 * or for replies and forwards (which fall back to the new-mail one when "same as new").
 * Read with the sender's own token: signatures belong to each mailbox. A failure means
 * no signature rather than no mail.
 */
export async function signatureFor(mode: ComposeMode | null, sender: SenderIdentity): Promise<Signature | null> {
  const place = signaturePlace(mode);
  if (!place) return null;
  try {
    return await signatureApi.resolve(place, sender.token);
  } catch {
    return null;
  }
}
