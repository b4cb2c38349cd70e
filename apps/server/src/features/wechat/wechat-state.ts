import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The OAuth state (RFC 6749 §10.12) carries its own proof instead of a stored row, so
// any node can check it: expiry and nonce, MACed with a key derived from the app
// secret every node shares. WeChat allows only [a-zA-Z0-9] in it, hence hex, no separators.
const TTL_SECONDS = 10 * 60;

const keyOf = (secret: string) => createHash('sha256').update(`mailwing wechat state\0${secret}`).digest();
const mac = (secret: string, body: string) => createHmac('sha256', keyOf(secret)).update(body).digest('hex').slice(0, 32);

export function issueState(secret: string, now = Date.now()): string {
  const exp = Math.floor(now / 1000 + TTL_SECONDS).toString(16).padStart(8, '0');
  const body = `${exp}${randomBytes(8).toString('hex')}`;
  return `${body}${mac(secret, body)}`;
}

export function stateValid(secret: string, state: string, now = Date.now()): boolean {
  if (!/^[0-9a-f]{56}$/.test(state)) return false;
  const body = state.slice(0, 24);
  const given = Buffer.from(state.slice(24), 'hex');
  const expected = Buffer.from(mac(secret, body), 'hex');
  if (!timingSafeEqual(given, expected)) return false;
  return parseInt(body.slice(0, 8), 16) * 1000 > now;
}
