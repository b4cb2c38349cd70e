import { describe, expect, it } from 'vitest';
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { placeSignature } from '../../state/signature-block';
import { SignatureNode } from './signature-node';
import { swapSignature } from './signature-swap';

const sigA = '<p>Alice Wang<br>Demo Co</p>';
const sigB = '<p>— Alice (support)</p>';

describe('placing the signature in a body (HTML)', () => {
  it('puts a new mail\'s signature under the text, and a reply\'s above the quote', () => {
    expect(placeSignature('', sigA, 'new')).toBe(`<p></p><div class="mw-signature" data-mw-signature="">${sigA}</div>`);
    const reply = '<p></p><p></p><p>On 2026-11-22, Bob wrote:</p><blockquote><p>hi</p></blockquote>';
    expect(placeSignature(reply, sigA, 'reply')).toBe(`<p></p><div class="mw-signature" data-mw-signature="">${sigA}</div><p></p><p>On 2026-11-22, Bob wrote:</p><blockquote><p>hi</p></blockquote>`);
  });

  it('swaps only the marked block, leaving the text around it as it was', () => {
    const body = placeSignature('<p>Dear Bob,</p><p>see <b>you</b></p>', sigA, 'new');
    const swapped = placeSignature(body, sigB, 'new');
    expect(swapped).toBe(`<p>Dear Bob,</p><p>see <b>you</b></p><div class="mw-signature" data-mw-signature="">${sigB}</div>`);
    expect(placeSignature(swapped, null, 'new')).toBe('<p>Dear Bob,</p><p>see <b>you</b></p>');
    // A body without a block and no signature wanted is returned untouched.
    expect(placeSignature('<p>x</p>', null, 'reply')).toBe('<p>x</p>');
  });

  it('finds the block by its class after a draft comes back without the data attribute', () => {
    const fromServer = '<p>typed</p><div class="mw-signature"><p>old</p></div><blockquote><p>q</p></blockquote>';
    expect(placeSignature(fromServer, sigB, 'reply')).toBe(`<p>typed</p><div class="mw-signature" data-mw-signature="">${sigB}</div><blockquote><p>q</p></blockquote>`);
  });
});

describe('swapping the signature in the live editor', () => {
  const editorWith = (content: string) => new Editor({ element: document.createElement('div'), extensions: [StarterKit, SignatureNode], content });

  it('keeps the block through the editor and replaces only it when the sender changes', () => {
    const editor = editorWith(placeSignature('<p></p><p>On Mon, Bob wrote:</p><blockquote><p>question?</p></blockquote>', sigA, 'reply'));
    // The writer types above the signature.
    editor.commands.setTextSelection(1);
    editor.commands.insertContent('Thanks, will do.');
    const typed = editor.getHTML();
    expect(typed).toContain('<div class="mw-signature" data-mw-signature=""><p>Alice Wang<br>Demo Co</p></div>');

    swapSignature(editor, sigB, 'reply');
    const after = editor.getHTML();
    expect(after).toBe(typed.replace('<p>Alice Wang<br>Demo Co</p>', '<p>— Alice (support)</p>'));
    expect(after.startsWith('<p>Thanks, will do.</p>')).toBe(true);
    expect(after).toContain('<blockquote><p>question?</p></blockquote>');

    // An identity with no signature removes the block; the text stays.
    swapSignature(editor, null, 'reply');
    expect(editor.getHTML()).toBe(typed.replace(/<div class="mw-signature"[\s\S]*?<\/div>/, ''));
    // And one with a signature brings a block back, above the quote.
    swapSignature(editor, sigA, 'reply');
    expect(editor.getHTML()).toBe(typed);
    editor.destroy();
  });

  it('adds a block to a new mail that has none, under what was written', () => {
    const editor = editorWith('<p>Hello</p>');
    swapSignature(editor, sigB, 'new');
    // (The editor keeps an empty line after a final block, for typing below it.)
    expect(editor.getHTML()).toBe(`<p>Hello</p><div class="mw-signature" data-mw-signature="">${sigB}</div><p></p>`);
    editor.destroy();
  });
});
