import { useCallback, useEffect, useState } from 'react';
import { Button, List, PullToRefresh, Switch, Toast } from 'antd-mobile';
import { AddOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router-dom';
import type { Rule } from '@mailwing/shared';
import { rulesApi } from '../../../api/mail-rules';
import { useMailRulesT, type MailRulesMessages } from '../../../i18n/mail-rules';
import { Page } from '../../../ui/page';
import { EmptyState } from '../../../ui/state-view';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import './rules.css';

export const RULE_EDIT_ROUTE = '/pages/modules/setting-filter-edit/index';

/** One line saying what a rule does, e.g. "Subject contains invoice → Move to folder". */
export function ruleSummary(m: MailRulesMessages, r: Rule): string {
  const acts: Record<Rule['actions'][number]['type'], string> = {
    move: m.actMove, tag: m.actTag, read: m.actRead, star: m.actStar, forward: m.actForward, delete: m.actDelete, reject: m.actReject,
  };
  return r.actions.map((a) => (a.type === 'forward' ? `${acts[a.type]} ${a.to}` : acts[a.type])).join(', ');
}

/** Filter rules: the ordered list, switched on and off and reordered in place. At most 50, so one page holds them all. */
export default function SettingFilterPage() {
  const m = useMailRulesT();
  const navigate = useNavigate();
  const [rules, setRules] = useState<Rule[] | null>(null);

  const load = useCallback(async (loading = true) => {
    setRules((await rulesApi.list(loading)).list);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const toggle = async (r: Rule, enabled: boolean) => {
    const saved = await rulesApi.update(r.id, { ...r, enabled });
    setRules((list) => list?.map((x) => (x.id === r.id ? saved : x)) ?? null);
  };

  const move = async (i: number, by: -1 | 1) => {
    if (!rules) return;
    const ids = rules.map((r) => r.id);
    [ids[i], ids[i + by]] = [ids[i + by]!, ids[i]!];
    setRules((await rulesApi.reorder(ids)).list);
    Toast.show({ content: m.saved });
  };

  const add = <Button size="small" fill="none" aria-label={m.ruleAdd} data-action="add-rule" onClick={() => navigate(RULE_EDIT_ROUTE)}><AddOutline fontSize={22} /></Button>;
  return (
    <Page title={m.titleFilter} back={TAB_ROUTES.settings} right={add}>
      <PullToRefresh onRefresh={() => load(false)}>
        <div className="mw-rule-note">{m.rulesIntro}</div>
        {rules && rules.length === 0 ? <EmptyState text={m.rulesEmpty} /> : null}
        <List>
          {(rules ?? []).map((r, i) => (
            <List.Item
              key={r.id}
              data-rule-id={r.id}
              description={`${ruleSummary(m, r)}${r.stop ? ` · ${m.ruleStops}` : ''}`}
              prefix={
                <span className="mw-rule-order" onClick={(e) => e.stopPropagation()}>
                  <button type="button" aria-label={m.moveUp} disabled={i === 0} onClick={() => void move(i, -1)}>↑</button>
                  <button type="button" aria-label={m.moveDown} disabled={i === rules!.length - 1} onClick={() => void move(i, 1)}>↓</button>
                </span>
              }
              extra={<span onClick={(e) => e.stopPropagation()}><Switch checked={r.enabled} aria-label={m.ruleEnabled} onChange={(on) => void toggle(r, on)} /></span>}
              onClick={() => navigate(`${RULE_EDIT_ROUTE}?id=${r.id}`)}
            >
              {r.name}
            </List.Item>
          ))}
        </List>
        <div className="mw-padded">
          <Button block color="primary" fill="outline" className="mw-rule-add" onClick={() => navigate(RULE_EDIT_ROUTE)}>{m.ruleAdd}</Button>
        </div>
      </PullToRefresh>
    </Page>
  );
}
