import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

// Passwords of collected mailboxes must be usable by the server (it logs in for the
// user), so they are encrypted, not hashed: AES-256-GCM under an installation key
// kept outside the database, so a dump of the database alone reveals none of them.

const VERSION = 'v1';

/** The key: COLLECT_KEY when set, else DATA_DIR/collect.key, created once (mode 0600). */
export async function loadCollectKey(configured: string | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return parseKey(configured, 'COLLECT_KEY');
  const file = path.join(dataDir, 'collect.key');
  await fs.mkdir(dataDir, { recursive: true });
  try {
    // 'wx': of two processes starting at once, one creates the file and the other reads it.
    await fs.writeFile(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return parseKey((await fs.readFile(file, 'utf8')).trim(), file);
}

function parseKey(text: string, where: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error(`${where}: the collection key must be 32 bytes in base64 (openssl rand -base64 32)`);
  return key;
}

export class SecretBox {
  constructor(private readonly key: Promise<Buffer>) {
    // Read on first use; a bad key still fails that use loudly.
    key.catch(() => undefined);
  }

  /** `context` binds the ciphertext to its row's owner: copied into another user's row it does not decrypt. */
  async seal(plain: string, context: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  async open(sealed: string, context: string): Promise<string> {
    const [version, data] = sealed.split(':');
    if (version !== VERSION || !data) throw new Error('unknown secret format');
    const raw = Buffer.from(data, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', await this.key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
