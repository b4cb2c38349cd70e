import type {
  ResolvedSignature, Signature, SignatureList, SignatureMode, SignatureSaved, TemplateBook, TemplateCategory, TemplateSaved, TemplateShelf,
} from '@mailwing/shared';
import { request, type Params } from './request';

// Signatures and templates (issue 16). Calls that the compose page makes in the
// background are quiet; the settings pages' calls toast their refusals, and the
// pages also translate them by reason code (ApiError.reason).

const post = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data, quiet: true });

export const signatureApi = {
  list: () => request<SignatureList>('/signature/list', { loading: false, quiet: true }),
  create: (name: string, html: string) => post<SignatureSaved>('/signature/create', { name, html }),
  update: (id: string, name: string, html: string) => post<SignatureSaved>('/signature/update', { id, name, html }),
  remove: (id: string) => post<SignatureList>('/signature/delete', { id }),
  /** newMail: an id or "" (none); reply: an id, "" (none) or "same" (as new mail). */
  defaults: (v: { newMail?: string; reply?: string }) => post<SignatureList>('/signature/defaults', v),
  /** What compose inserts for a mode, read with the sending mailbox's own token. */
  resolve: (mode: SignatureMode, token?: string) =>
    request<ResolvedSignature>('/signature/default', { data: { mode }, token, loading: false, quiet: true }).then((r): Signature | null => r.signature),
};

/** Personal templates at /template/…, the company's (admin only) at /admin/templates/…. */
function shelfApi(base: string) {
  return {
    create: (v: { name: string; categoryId: string; subject: string; html: string }) => post<TemplateSaved>(`${base}/create`, v),
    update: (id: string, v: { name: string; categoryId: string; subject: string; html: string }) => post<TemplateSaved>(`${base}/update`, { id, ...v }),
    remove: (id: string) => post<unknown>(`${base}/delete`, { id }),
    createCategory: (name: string) => post<TemplateCategory>(`${base}/category-create`, { name }),
    renameCategory: (id: string, name: string) => post<TemplateCategory>(`${base}/category-rename`, { id, name }),
    removeCategory: (id: string) => post<unknown>(`${base}/category-delete`, { id }),
  };
}

export const templateApi = {
  book: () => request<TemplateBook>('/template/list', { loading: false, quiet: true }),
  personal: shelfApi('/template'),
  company: { ...shelfApi('/admin/templates'), list: () => request<TemplateShelf>('/admin/templates/list', { loading: false, quiet: true }) },
};
