import { useEffect, useMemo, useState } from 'react';
import { Button, Dialog, Input, List, ProgressBar, Selector, Switch, Toast } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { DryRun, RuleAction, RuleCondition, RuleJob } from '@mailwing/shared';
import { refreshMbox } from '../../../api/endpoints';
import { rulesApi, type RuleDraft } from '../../../api/mail-rules';
import { useMailRulesT } from '../../../i18n/mail-rules';
import { session, useSession } from '../../../state/session';
import { reloadTags, useTags } from '../../../state/tags';
import { folderName } from '../../../ui/folder-name';
import { Page } from '../../../ui/page';
import { ActionRow, ConditionRow, complete, newAction, newCondition } from './rule-rows';
import '../setting-filter/rules.css';

const LIST_ROUTE = '/pages/modules/setting-filter/index';
const EMPTY: RuleDraft = { name: '', enabled: true, match: 'all', conditions: [newCondition('subject')], actions: [{ type: 'read' }], stop: false };

/** Creates or edits one rule; shows "matches N of the last 500 mails" while it is written, before it is saved. */
export default function SettingFilterEditPage() {
  const m = useMailRulesT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const mbox = useSession((s) => s.mbox);
  const tags = useTags();
  const [draft, setDraft] = useState<RuleDraft>(EMPTY);
  const [dry, setDry] = useState<DryRun | 'counting' | null>(null);
  const [runIn, setRunIn] = useState('0');
  const [job, setJob] = useState<RuleJob | null>(null);
  const folders = useMemo(() => [...(mbox?.system ?? []), ...(mbox?.custom ?? [])], [mbox]);

  useEffect(() => {
    void reloadTags();
    if (!session.get().mbox) void refreshMbox();
  }, []);
  useEffect(() => {
    if (id) void rulesApi.list().then((r) => { const found = r.list.find((x) => x.id === id); if (found) setDraft(found); });
  }, [id]);

  const ready = draft.conditions.length > 0 && draft.conditions.every(complete);
  const key = JSON.stringify([draft.match, draft.conditions]);
  useEffect(() => {
    if (!ready) return setDry(null);
    setDry('counting');
    // Counted a moment after the last keystroke, not on every one.
    const timer = setTimeout(() => {
      rulesApi.dryRun({ ...draft, name: draft.name || '-', actions: [{ type: 'read' }] }).then(setDry, () => setDry(null));
    }, 350);
    return () => clearTimeout(timer);
    // Only the conditions (and match) change the count, and `key` stands for them.
  }, [key, ready]);

  useEffect(() => {
    if (!job || job.state !== 'queued') return;
    const timer = setTimeout(() => void rulesApi.job(job.id).then(setJob, () => undefined), 1000);
    return () => clearTimeout(timer);
  }, [job]);

  const setCondition = (i: number, c: RuleCondition | null) =>
    setDraft((d) => ({ ...d, conditions: c ? d.conditions.map((x, k) => (k === i ? c : x)) : d.conditions.filter((_, k) => k !== i) }));
  const setAction = (i: number, a: RuleAction | null) =>
    setDraft((d) => ({ ...d, actions: a ? d.actions.map((x, k) => (k === i ? a : x)) : d.actions.filter((_, k) => k !== i) }));

  const save = async () => {
    // Said here in the user's language; the server refuses the same (rule.forward_self, input.format).
    const me = (session.get().currentEmailName ?? '').toLowerCase();
    for (const a of draft.actions) {
      if (a.type !== 'forward') continue;
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(a.to.trim())) return Toast.show({ content: m.forwardBad });
      if (a.to.trim().toLowerCase() === me) return Toast.show({ content: m.forwardSelf });
    }
    const saved = id ? await rulesApi.update(id, draft) : await rulesApi.create(draft);
    Toast.show({ content: m.saved });
    navigate(`/pages/modules/setting-filter-edit/index?id=${saved.id}`, { replace: true });
  };
  const remove = async () => {
    if (!id || !(await Dialog.confirm({ content: m.deleteRuleConfirm, confirmText: m.delete, cancelText: m.cancel }))) return;
    await rulesApi.remove(id);
    Toast.show({ content: m.ruleDeleted });
    navigate(LIST_ROUTE, { replace: true });
  };
  const run = async () => {
    if (!id) return Toast.show({ content: m.runSaveFirst });
    setJob(await rulesApi.run(id, runIn));
  };

  return (
    <Page title={id ? m.titleRuleEdit : m.titleRuleNew} back={LIST_ROUTE}>
      <List>
        <List.Item title={m.ruleName}>
          <Input id="rule-name" placeholder={m.ruleNamePlaceholder} value={draft.name} maxLength={60} onChange={(name) => setDraft((d) => ({ ...d, name }))} aria-label={m.ruleName} />
        </List.Item>
        <List.Item title={m.ruleMatch}>
          <Selector
            columns={2}
            value={[draft.match]}
            options={[{ label: m.matchAll, value: 'all' }, { label: m.matchAny, value: 'any' }]}
            onChange={(v) => v[0] && setDraft((d) => ({ ...d, match: v[0] as 'all' | 'any' }))}
          />
        </List.Item>
      </List>
      <div className="mw-rule-section">{m.conditions}</div>
      {draft.conditions.map((c, i) => <ConditionRow key={i} m={m} c={c} onChange={(x) => setCondition(i, x)} onRemove={() => setCondition(i, null)} />)}
      <div className="mw-padded"><Button size="small" className="mw-rule-add" onClick={() => setDraft((d) => ({ ...d, conditions: [...d.conditions, newCondition('from')] }))}>{m.addCondition}</Button></div>
      <div className="mw-rule-dry" role="status" data-dry-run>
        {dry === null ? m.dryRunIncomplete : dry === 'counting' ? m.dryRunCounting : m.dryRun(dry.matched, dry.of)}
      </div>
      <div className="mw-rule-section">{m.actions}</div>
      {draft.actions.map((a, i) => <ActionRow key={i} m={m} a={a} folders={folders} tags={tags} onChange={(x) => setAction(i, x)} onRemove={() => setAction(i, null)} />)}
      <div className="mw-padded"><Button size="small" className="mw-rule-add" onClick={() => setDraft((d) => ({ ...d, actions: [...d.actions, newAction('move', folders, tags)] }))}>{m.addAction}</Button></div>
      <div className="mw-rule-note">{m.loopNote}</div>
      <List>
        <List.Item extra={<Switch checked={draft.enabled} onChange={(enabled) => setDraft((d) => ({ ...d, enabled }))} aria-label={m.ruleEnabled} />}>{m.ruleEnabled}</List.Item>
        <List.Item extra={<Switch checked={draft.stop} onChange={(stop) => setDraft((d) => ({ ...d, stop }))} aria-label={m.ruleStop} />}>{m.ruleStop}</List.Item>
      </List>
      <div className="mw-padded">
        <Button block color="primary" data-action="save-rule" disabled={!ready || !draft.name.trim() || draft.actions.length === 0} onClick={() => void save()}>{m.saveRule}</Button>
      </div>
      {id ? (
        <>
          <div className="mw-rule-section">{m.runExisting}</div>
          <div className="mw-rule-row">
            <select className="mw-rule-select" aria-label={m.runIn} value={runIn} onChange={(e) => setRunIn(e.target.value)}>
              {folders.filter((f) => f.mid !== '2').map((f) => <option key={f.mid} value={f.mid}>{folderName(m, f)}</option>)}
            </select>
            <Button size="small" color="primary" fill="outline" data-action="run-rule" disabled={job?.state === 'queued'} onClick={() => void run()}>{m.runExisting}</Button>
          </div>
          {job ? (
            <div className="mw-padded" role="status" data-job-state={job.state}>
              <ProgressBar percent={job.total === 0 ? 100 : Math.round((100 * job.scanned) / job.total)} />
              <div className="mw-rule-note">{m.runState(job.scanned, job.total, job.matched)}{job.state === 'done' ? ` · ${m.runDone}` : ''}</div>
            </div>
          ) : null}
          <div className="mw-padded"><Button block color="danger" fill="outline" onClick={() => void remove()}>{m.deleteRule}</Button></div>
        </>
      ) : null}
    </Page>
  );
}
