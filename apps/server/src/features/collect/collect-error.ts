/** What went wrong talking to a remote mailbox, in the categories the user sees. */
export type CollectErrorKind = 'auth' | 'tls' | 'dns' | 'timeout' | 'protocol' | 'network' | 'address';

export class CollectError extends Error {
  /** `reply`: the server's own line when it gave one (never contains our password: we send it, servers do not echo it). */
  constructor(readonly kind: CollectErrorKind, readonly reply: string) {
    super(`${kind}: ${reply}`);
  }
}

const TLS_CODES = /^(ERR_SSL|ERR_TLS|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_OSSL|HOSTNAME_MISMATCH)/;

/** Sorts a socket or library error into a category; a CollectError passes through. */
export function classify(err: unknown): CollectError {
  if (err instanceof CollectError) return err;
  const e = err as NodeJS.ErrnoException & { reason?: string; authenticationFailed?: boolean; responseText?: string };
  const code = e?.code ?? '';
  const text = String(e?.responseText || e?.message || err).slice(0, 300);
  if (e?.authenticationFailed || code === 'AUTHENTICATIONFAILED') return new CollectError('auth', text);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return new CollectError('dns', text);
  if (code === 'ETIMEDOUT' || code === 'ETIMEOUT' || code === 'CONNECT_TIMEOUT' || code === 'GREETING_TIMEOUT' || /timed? ?out/i.test(text)) return new CollectError('timeout', text);
  if (TLS_CODES.test(code) || /certificate|ssl|tls/i.test(text)) return new CollectError('tls', text);
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EPIPE' || code === 'NoConnection') return new CollectError('network', text);
  return new CollectError('protocol', text);
}
