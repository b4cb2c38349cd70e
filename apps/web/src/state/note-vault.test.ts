import { describe, expect, it } from 'vitest';
import { createVault, type OpenNote } from './note-vault';

const note = (title: string, text: string): OpenNote => ({ key: {}, proof: 'p', salt: 's', iterations: 1, kdf: 'pbkdf2-sha256', title, html: `<p>${text}</p>`, text });

describe('note vault', () => {
  it('locks every open note after 5 idle minutes, measured on the injected clock', () => {
    let t = 1_000_000;
    const vault = createVault({ now: () => t });
    let locked = 0;
    vault.subscribe(() => { locked += 1; });
    vault.put('1', note('Bank', 'PIN 4711'));
    locked = 0;
    t += 4 * 60_000;
    vault.touch();
    t += 4 * 60_000 + 59_999;
    expect(vault.get('1')?.title).toBe('Bank');
    // A get is not use: the clock still runs from the last touch.
    t += 1;
    expect(vault.check()).toBe(true);
    expect(vault.get('1')).toBeUndefined();
    expect(locked).toBe(1);
  });

  it('searches only the notes that are open, and forgets one locked by hand', () => {
    let t = 0;
    const vault = createVault({ now: () => t });
    vault.put('1', note('季度报告', '第三季度'));
    vault.put('2', note('Recipe', 'flour and eggs'));
    expect(vault.search('季度').map((x) => x.id)).toEqual(['1']);
    expect(vault.search('EGGS').map((x) => x.id)).toEqual(['2']);
    vault.lock('2');
    expect(vault.search('eggs')).toEqual([]);
    t += 5 * 60_000;
    expect(vault.search('季度')).toEqual([]);
  });

  it('a touch after the deadline locks rather than extending', () => {
    let t = 0;
    const vault = createVault({ now: () => t });
    vault.put('1', note('a', 'b'));
    t += 6 * 60_000;
    vault.touch();
    expect(vault.get('1')).toBeUndefined();
  });
});
