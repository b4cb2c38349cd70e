import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toast } from 'antd-mobile';
import { setLanguage } from '../i18n';
import { compose, composeForm } from './compose';
import { session } from './session';

// The browser's fetch and XMLHttpRequest are the boundary: the tests stand in
// for the server there and let the store, the request layer and the upload
// code run as they do in the app.

class FakeXhr {
  static all: FakeXhr[] = [];
  url = '';
  status = 0;
  response: unknown = null;
  responseType = '';
  aborted = false;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  file: File | null = null;
  constructor() {
    FakeXhr.all.push(this);
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  send(form: FormData) {
    this.file = form.get('file') as File;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(percent: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: percent, total: 100 });
  }
  answer(body: unknown) {
    this.status = 200;
    this.response = body;
    this.onload?.();
  }
}

interface Posted {
  path: string;
  body: URLSearchParams;
}
let posted: Posted[] = [];
let draftIds = 0;
// The sender's default signature the fake server hands out (issue 16).
let signature: { id: string; name: string; html: string; updatedAt: number } | null = null;
let signatureAsked: Array<{ mode: string | null; token: string | null }> = [];

function server(): void {
  vi.stubGlobal('fetch', vi.fn(async (input: string, init: RequestInit) => {
    const url = new URL(input);
    const path = url.pathname.replace('/h5', '');
    const reply = (data: unknown) => new Response(JSON.stringify({ code: 200, data }), { status: 200 });
    if (path === '/write/limits') return reply({ maxFiles: 52, maxFileBytes: 1000, maxTotalBytes: 1500, blockedExtensions: ['exe'] });
    if (path === '/signature/default') {
      signatureAsked.push({ mode: url.searchParams.get('mode'), token: url.searchParams.get('t') });
      return reply({ signature });
    }
    posted.push({ path, body: new URLSearchParams(String(init.body)) });
    if (path === '/write/draft') {
      // The server answers a little later, so saves can overlap if we let them.
      await new Promise((r) => setTimeout(r, 10));
      draftIds += 1;
      return reply({ id: String(100 + draftIds) });
    }
    if (path === '/write/send') return reply({ id: '900', sendAt: null, status: 'sending' });
    return new Response('{}', { status: 404 });
  }));
}

const file = (name: string, size: number) => new File([new Uint8Array(size)], name);
const rows = () => compose.get().attachments.map((a) => `${a.name}:${a.status}:${a.progress}:${a.id ?? ''}`);
let entry = 0;

beforeEach(async () => {
  setLanguage('en');
  session.setToken('tok');
  posted = [];
  signature = null;
  signatureAsked = [];
  draftIds = 0;
  FakeXhr.all = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  server();
  entry += 1;
  compose.begin(`entry-${entry}`, null);
  await vi.waitFor(() => expect(compose.get().limits.maxTotalBytes).toBe(1500));
  await vi.waitFor(() => expect(compose.get().phase).toBe('ready'));
});

afterEach(() => {
  vi.unstubAllGlobals();
  Toast.clear();
});

describe('attachments of the mail being written', () => {
  it('uploads the files that pass the checks, with progress, and sends their ids', async () => {
    const refused = compose.addFiles([file('a.txt', 10), file('run.exe', 10), file('big.bin', 1001)]);
    expect(refused.map((r) => `${r.file.name}:${r.problem}`)).toEqual(['run.exe:badFormat', 'big.bin:tooLarge']);
    expect(FakeXhr.all).toHaveLength(1);
    const xhr = FakeXhr.all[0]!;
    expect(new URL(xhr.url).pathname).toBe('/h5/write/upload');
    expect(new URL(xhr.url).searchParams.get('t')).toBe('tok');
    expect(xhr.file?.name).toBe('a.txt');
    expect(rows()).toEqual(['a.txt:uploading:0:']);
    expect(compose.uploading()).toBe(true);

    xhr.progress(40);
    expect(rows()).toEqual(['a.txt:uploading:40:']);
    expect(composeForm().attachIds).toBe('');
    xhr.answer({ code: 200, data: { id: '7', name: 'a.txt', size: 10, contentType: 'text/plain' } });
    await vi.waitFor(() => expect(rows()).toEqual(['a.txt:done:100:7']));
    expect(composeForm().attachIds).toBe('7');
    expect(compose.uploading()).toBe(false);
  });

  it('counts the files already attached against the total', () => {
    compose.addFiles([file('a.bin', 900)]);
    const refused = compose.addFiles([file('b.bin', 700)]);
    expect(refused.map((r) => r.problem)).toEqual(['totalTooLarge']);
  });

  it('cancels an upload in progress: the request is aborted and the row goes', async () => {
    compose.addFiles([file('slow.pdf', 100)]);
    const xhr = FakeXhr.all[0]!;
    xhr.progress(30);
    const done = compose.waitForUploads();
    compose.removeAttachment(compose.get().attachments[0]!.key);
    expect(xhr.aborted).toBe(true);
    expect(compose.get().attachments).toEqual([]);
    await done;
  });

  it('shows the server’s reason when it refuses a file', async () => {
    compose.addFiles([file('x.txt', 10)]);
    FakeXhr.all[0]!.answer({ code: 422, error: { file: 'File too large' } });
    await vi.waitFor(() => expect(compose.get().attachments[0]?.status).toBe('failed'));
    expect(compose.get().attachments[0]?.error).toBe('File too large');
    expect(compose.uploading()).toBe(false);
  });
});

describe('drafts', () => {
  it('saves only when something changed', async () => {
    expect(await compose.saveDraft()).toBe(false);
    compose.edit({ subject: 'Hello' });
    expect(await compose.saveDraft()).toBe(true);
    expect(await compose.saveDraft()).toBe(false);
    expect(posted.map((p) => p.path)).toEqual(['/write/draft']);
  });

  it('saves one after another, each with the id the last save returned', async () => {
    compose.edit({ subject: 'One' });
    const first = compose.saveDraft();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    // A change while the first save is on its way waits for its answer.
    compose.edit({ subject: 'Two' });
    const second = compose.saveDraft();
    await Promise.all([first, second]);
    expect(posted.map((p) => [p.body.get('subject'), p.body.get('draftId')])).toEqual([['One', null], ['Two', '101']]);
    expect(compose.get().draftId).toBe('102');
  });

  it('keeps half-typed addresses in a draft, as typed', async () => {
    compose.addRecipients('to', [{ name: 'Bob', address: 'bob@x.com', valid: true }, { name: '', address: 'nope', valid: false }]);
    await compose.saveDraft();
    expect(posted[0]?.body.get('to')).toBe('Bob <bob@x.com>, nope');
  });

  it('sends after a save in flight, replacing the latest draft, and saves no more', async () => {
    compose.addRecipients('to', [{ name: '', address: 'bob@x.com', valid: true }]);
    compose.edit({ subject: 'Hi', urgent: true });
    void compose.saveDraft();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    const result = await compose.send();
    expect(result.id).toBe('900');
    const sent = posted.find((p) => p.path === '/write/send')!;
    expect(sent.body.get('draftId')).toBe('101');
    expect(sent.body.get('urgent')).toBe('1');
    expect(compose.get().phase).toBe('sent');
    compose.edit({ subject: 'late change' });
    expect(await compose.saveDraft()).toBe(false);
  });
});

describe('one mail per compose page', () => {
  it('keeps the mail for the same history entry and starts afresh for a new one', () => {
    compose.edit({ subject: 'Kept' });
    compose.begin(`entry-${entry}`, null);
    expect(compose.get().subject).toBe('Kept');
    compose.begin(`entry-${entry}-other`, null);
    expect(compose.get().subject).toBe('');
  });
});

describe('signature', () => {
  it("starts a new mail with the sender's new-mail signature, which by itself is not a change to save", async () => {
    signature = { id: '7', name: 'Work', html: '<p>Alice Wang</p>', updatedAt: 0 };
    signatureAsked = [];
    compose.begin(`entry-${entry}-sig`, null);
    expect(compose.get().phase).toBe('loading');
    await vi.waitFor(() => expect(compose.get().phase).toBe('ready'));
    expect(compose.get().html).toBe('<p></p><div class="mw-signature" data-mw-signature=""><p>Alice Wang</p></div>');
    expect(signatureAsked).toEqual([{ mode: 'new', token: 'tok' }]);
    expect(compose.unsaved()).toBe(false);
  });
});
