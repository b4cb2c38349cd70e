import { randomBytes } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import type { WestCaptcha } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { invalid } from '../../errors.js';
import { ensureAppKey } from '../system/app-keys.repository.js';
import * as repo from './west-account.repository.js';
import { withWestTables } from './tables.js';

// A proof-of-work captcha (ALTCHA, SHA-256) that needs no outside service: the server
// signs a challenge with an installation-wide HMAC key, the browser searches for the
// number, the server checks the signature and the work. A solution opens one door.

const TTL_MS = 10 * 60_000;
/** About 25,000 hashes on average: a fraction of a second on a phone, a cost for a bot that repeats it. */
export const CAPTCHA_MAX_NUMBER = 50_000;

export class WestCaptchaService {
  private key: Promise<string> | null = null;

  constructor(private readonly db: Db, private readonly now: () => Date) {}

  private hmacKey(): Promise<string> {
    this.key ??= ensureAppKey(this.db, 'west-captcha', { secret: randomBytes(32).toString('base64') }).then((v) => v.secret);
    return this.key;
  }

  async challenge(): Promise<WestCaptcha> {
    const c = await createChallenge({ hmacKey: await this.hmacKey(), maxNumber: CAPTCHA_MAX_NUMBER, expires: new Date(this.now().getTime() + TTL_MS) });
    return { algorithm: c.algorithm, challenge: c.challenge, maxnumber: c.maxnumber, salt: c.salt, signature: c.signature };
  }

  /** Refuses a wrong, expired or already used solution with 422 west.captcha_invalid. */
  async spend(payload: string): Promise<void> {
    let signature = '';
    try {
      signature = String((JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { signature?: unknown }).signature ?? '');
    } catch { /* not base64 JSON: refused below */ }
    const good = signature !== '' && await verifySolution(payload, await this.hmacKey(), true).catch(() => false);
    if (!good || !await repo.spendCaptcha(withWestTables(this.db), signature, new Date(this.now().getTime() + TTL_MS), this.now())) {
      throw invalid('captcha', 'The CAPTCHA is wrong or has expired. Please try again.', 'west.captcha_invalid');
    }
  }
}
