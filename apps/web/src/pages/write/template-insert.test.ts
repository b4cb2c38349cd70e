import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import type { Template } from '@mailwing/shared';
import { compose } from '../../state/compose';
import { session } from '../../state/session';
import { settingsStore } from '../../state/settings';
import { placeSignature } from '../../state/signature-block';
import { SignatureNode } from './signature-node';
import { insertTemplate } from './template-sheet';

// Inserting a template in compose: variables filled in for this mail, the body at the
// cursor (the signature stays), the subject only when it is empty.
const template: Template = { id: '1', categoryId: null, name: 'Quote', subject: 'Quote for {{recipient.name}}', html: '<p>Dear {{recipient.name}}, from {{sender.name}} at {{company}}</p>', updatedAt: 0 };
let entry = 0;

beforeEach(async () => {
  // The compose store asks the server for limits and the signature; the boundary is fetch.
  vi.stubGlobal('fetch', vi.fn(async (input: string) => {
    const path = new URL(input).pathname;
    const data = path.endsWith('/signature/default') ? { signature: null } : { maxFiles: 50, maxFileBytes: 1000, maxTotalBytes: 1000, blockedExtensions: [] };
    return new Response(JSON.stringify({ code: 200, data }), { status: 200 });
  }));
  session.setToken('tok');
  session.setCurrentEmailName('alice@demo.test');
  settingsStore.set({ owner: 'tok', settings: {
    email: 'alice@demo.test', nickname: 'Alice <A>', avatar: null, company: 'Demo Co', role: 'user', quotaBytes: 0, usedBytes: 0, language: 'en',
    notify: { newMail: true, quietEnabled: false, quietStart: '22:00', quietEnd: '07:00', timeZone: 'UTC', folders: [] }, secverify: false, wechatBound: false,
  } });
  entry += 1;
  compose.begin(`tpl-${entry}`, null);
  await vi.waitFor(() => expect(compose.get().phase).toBe('ready'));
});
afterEach(() => vi.unstubAllGlobals());

const editorWith = (content: string) => new Editor({ element: document.createElement('div'), extensions: [StarterKit, SignatureNode], content });

describe('inserting a template', () => {
  it('puts the body at the cursor above the signature, escaped, and fills the empty subject', () => {
    compose.addRecipients('to', [{ name: 'Bob Lee', address: 'bob@demo.test', valid: true }]);
    const editor = editorWith(placeSignature('', '<p>— Alice</p>', 'new'));
    insertTemplate(editor, template, 'en');
    const html = editor.getHTML();
    expect(html.startsWith('<p>Dear Bob Lee, from Alice &lt;A&gt; at Demo Co</p>')).toBe(true);
    expect(html).toContain('<div class="mw-signature" data-mw-signature=""><p>— Alice</p></div>');
    expect(compose.get().subject).toBe('Quote for Bob Lee');
    editor.destroy();
  });

  it('keeps a subject already written, and variables with no value yet as written', () => {
    compose.edit({ subject: 'My own' });
    const editor = editorWith('');
    insertTemplate(editor, template, 'en');
    expect(editor.getHTML()).toBe('<p>Dear {{recipient.name}}, from Alice &lt;A&gt; at Demo Co</p>');
    expect(compose.get().subject).toBe('My own');
    editor.destroy();
  });
});
