import type { Branding, DomainStatus, DomainStatusList, WelcomePreview, WelcomeTemplate } from '@mailwing/shared';
import { request, type Params } from './request';

// Calls of the admin console's domains, welcome mail and login-page pages (issue 17); loaded with them.
// Quiet: the pages word each refusal by its reason code.

const post = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data, quiet: true });

export const adminConsoleApi = {
  domains: () => request<DomainStatusList>('/admin/domains/status', { loading: false, quiet: true }),
  addDomain: (domain: string) => post<DomainStatus>('/admin/domains/add', { domain }),
  checkDomain: (domain: string) => post<DomainStatus>('/admin/domains/check', { domain }),
  rotateDkim: (domain: string) => post<DomainStatus>('/admin/domains/rotate-dkim', { domain }),
  removeDomain: (domain: string) => post<unknown>('/admin/domains/remove', { domain }),
  welcome: () => request<WelcomeTemplate>('/admin/welcome', { loading: false, quiet: true }),
  saveWelcome: (v: { enabled: boolean; subject: string; body: string }) => post<WelcomeTemplate>('/admin/welcome', { ...v, enabled: v.enabled ? '1' : '0' }),
  previewWelcome: (v: { subject: string; body: string }) => post<WelcomePreview>('/admin/welcome/preview', v),
  branding: () => request<Branding>('/admin/branding', { loading: false, quiet: true }),
  saveBranding: (v: Branding) => post<Branding>('/admin/branding', { ...v }),
};
