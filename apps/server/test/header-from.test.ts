import { describe, expect, it } from 'vitest';
import { headerFromAddresses, headerFromDomains } from '../src/smtp/header-from.js';

// The header block ends at the first empty line, CRLF or bare LF (header-from.ts finds it in the bytes).
describe('header From', () => {
  it('reads every From header, folded or not, and nothing after the empty line', () => {
    const raw = Buffer.from('Subject: x\r\nFrom: Ann <ann@one.example>,\r\n\tbob@Two.Example\r\nFrom: carl@three.example\r\n\r\nFrom: body@four.example\r\n');
    expect(headerFromAddresses(raw)).toEqual(['ann@one.example', 'bob@two.example', 'carl@three.example']);
    expect(headerFromDomains(raw)).toEqual(['one.example', 'two.example', 'three.example']);
  });

  it.each([
    ['bare LF', 'From: a@one.example\n\nFrom: b@two.example\n'],
    ['CR LF then LF', 'From: a@one.example\r\n\nFrom: b@two.example\r\n'],
    ['LF then CR LF', 'From: a@one.example\n\r\nFrom: b@two.example\r\n'],
  ])('ends the header block at an empty line written with %s', (_, text) => {
    expect(headerFromAddresses(Buffer.from(text))).toEqual(['a@one.example']);
  });

  it('reads a message without an empty line as all header', () => {
    expect(headerFromAddresses(Buffer.from('Subject: x\r\nFrom: a@one.example\r\nFrom: b@two.example'))).toEqual(['a@one.example', 'b@two.example']);
  });
});
