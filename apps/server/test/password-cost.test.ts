import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { DEFAULT_SCRYPT_N, dummyHash, hashPassword, passwordCost, usePasswordCost, verifyPassword } from '../src/features/account/password.js';

// The suite hashes at the lowest cost (testConfig); what a real server uses is checked here.
const before = passwordCost();
afterEach(() => usePasswordCost(before));

describe('the password hash cost (PASSWORD_SCRYPT_N)', () => {
  it('is 16384 unless set; lower only off production, and always a power of two within bounds', () => {
    expect(DEFAULT_SCRYPT_N).toBe(16384);
    expect(loadConfig({}).passwordScryptN).toBe(16384);
    expect(loadConfig({ PASSWORD_SCRYPT_N: '1024' }).passwordScryptN).toBe(1024);
    expect(loadConfig({ PASSWORD_SCRYPT_N: '65536', NODE_ENV: 'production' }).passwordScryptN).toBe(65536);
    expect(() => loadConfig({ PASSWORD_SCRYPT_N: '8192', NODE_ENV: 'production' })).toThrow(/PASSWORD_SCRYPT_N/);
    for (const bad of ['3000', '512', '131072', 'x']) expect(() => loadConfig({ PASSWORD_SCRYPT_N: bad })).toThrow();
  });

  it('makes new hashes at the cost set, and checks every hash at the cost stored with it', async () => {
    usePasswordCost(DEFAULT_SCRYPT_N);
    const strong = await hashPassword('correct horse');
    expect(strong).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    usePasswordCost(1024);
    const cheap = await hashPassword('correct horse');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    // Changing the cost leaves hashes made before valid, and wrong passwords wrong.
    expect(await verifyPassword('correct horse', strong)).toBe(true);
    expect(await verifyPassword('correct horse', cheap)).toBe(true);
    expect(await verifyPassword('correct horsf', strong)).toBe(false);
    expect(await verifyPassword('correct horsf', cheap)).toBe(false);
  });

  it('checks a missing account against a dummy of the same cost as real ones', async () => {
    usePasswordCost(DEFAULT_SCRYPT_N);
    expect(dummyHash()).toMatch(/^scrypt\$16384\$8\$1\$/);
    usePasswordCost(2048);
    expect(dummyHash()).toMatch(/^scrypt\$2048\$8\$1\$/);
    expect(await verifyPassword('', dummyHash())).toBe(false);
  });
});
