import type { AutoReply, DryRun, Rule, RuleInput, RuleJob, RuleList } from '@mailwing/shared';
import { request, type Params } from './request';

// Filter rules and auto-reply (issue 16). Apart from endpoints.ts so they load with
// their pages. The rule's lists travel as JSON strings in the form (the server parses them).

export type RuleDraft = Pick<RuleInput, 'name' | 'enabled' | 'match' | 'conditions' | 'actions' | 'stop'>;

const form = (r: RuleDraft): Params => ({
  name: r.name, enabled: r.enabled, match: r.match, stop: r.stop, conditions: JSON.stringify(r.conditions), actions: JSON.stringify(r.actions),
});
const post = <T>(path: string, data: Params, quiet = false) => request<T>(path, { method: 'POST', data, quiet });

export const rulesApi = {
  list: (loading = true) => request<RuleList>('/rule/list', { loading }),
  create: (r: RuleDraft) => post<Rule>('/rule/create', form(r)),
  update: (id: string, r: RuleDraft) => post<Rule>('/rule/update', { id, ...form(r) }),
  remove: (id: string) => post<unknown>('/rule/delete', { id }),
  reorder: (ids: readonly string[]) => post<RuleList>('/rule/reorder', { ids: ids.join(',') }),
  /** No spinner and no error toast: the editor shows the count as the user types. */
  dryRun: (r: RuleDraft) => request<DryRun>('/rule/dry-run', { method: 'POST', data: form(r), loading: false, quiet: true }),
  run: (id: string, mid: string) => post<RuleJob>('/rule/run', { id, mid }),
  job: (id: string) => request<RuleJob>('/rule/job', { data: { id }, loading: false, quiet: true }),
  getAutoReply: () => request<AutoReply>('/autoreply/get'),
  saveAutoReply: (v: AutoReply) => post<AutoReply>('/autoreply/save', { ...v }),
};
