import { useEffect, useState } from 'react';
import { Button, Input, List, PullToRefresh, Tabs } from 'antd-mobile';
import { CloseOutline, StopOutline } from 'antd-mobile-icons';
import { useSearchParams } from 'react-router-dom';
import type { SenderRules } from '@mailwing/shared';
import { contactsApi, type RuleKind } from '../../api/contacts';
import { ApiError } from '../../api/request';
import { useAddressT } from '../../i18n/address';
import { isSenderPattern } from '../../state/address-book';
import { Page } from '../../ui/page';
import { EmptyState, ErrorState } from '../../ui/state-view';
import { ADDRESS_ROUTES } from './hooks';
import { pullTexts } from './pull-texts';
import './address.css';

/** Block list and allow list (?kind=allow): add an address or a domain, remove one. */
export default function RulesPage() {
  const m = useAddressT();
  const [params, setParams] = useSearchParams();
  const kind: RuleKind = params.get('kind') === 'allow' ? 'allow' : 'block';
  const [rules, setRules] = useState<SenderRules | null>(null);
  const [failed, setFailed] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState('');

  const refresh = async () => {
    setRules(await contactsApi.rules());
    setFailed(false);
  };
  const load = () => {
    refresh().catch(() => setFailed(true));
  };
  useEffect(load, []);

  const add = async () => {
    if (!isSenderPattern(text)) {
      setError(m.abPatternInvalid);
      return;
    }
    try {
      setRules(await contactsApi.addRule(kind, text.trim()));
      setText('');
      setError('');
    } catch (e) {
      if (e instanceof ApiError) setError(e.fields.pattern ?? e.message);
    }
  };
  const remove = async (pattern: string) => setRules(await contactsApi.deleteRule(kind, pattern));

  const list = rules?.[kind] ?? [];
  return (
    <Page title={m.titleRules} back={ADDRESS_ROUTES.tab}>
      <Tabs
        className="mw-ab-tabs"
        activeKey={kind}
        onChange={(key) => {
          setError('');
          setParams(key === 'allow' ? { kind: key } : {}, { replace: true });
        }}
      >
        <Tabs.Tab key="block" title={m.abBlock} />
        <Tabs.Tab key="allow" title={m.abAllow} />
      </Tabs>
      <div className="mw-hint">{kind === 'block' ? m.abBlockHint : m.abAllowHint}</div>
      <form
        className="mw-ab-rule-add"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <Input
          name="pattern"
          value={text}
          placeholder={m.abPattern}
          autoComplete="off"
          clearable
          onChange={(v) => {
            setText(v);
            setError('');
          }}
          aria-label={m.abPattern}
        />
        <Button type="submit" size="small" color="primary">{m.abAddRule}</Button>
      </form>
      {error && <div className="mw-field-error" role="alert">{error}</div>}
      {failed && !rules ? <ErrorState onRetry={load} /> : rules && (
        <PullToRefresh onRefresh={refresh} {...pullTexts(m)}>
          {list.length === 0 ? (
            <EmptyState icon={<StopOutline />} text={m.abNoRules} />
          ) : (
            <List className="mw-ab-rules">
              {list.map((pattern) => (
                <List.Item
                  key={pattern}
                  data-pattern={pattern}
                  extra={
                    <button type="button" className="mw-attach-remove" aria-label={`${m.remove} ${pattern}`} onClick={() => void remove(pattern)}>
                      <CloseOutline />
                    </button>
                  }
                >
                  <span className="mw-ab-value">{pattern}</span>
                </List.Item>
              ))}
            </List>
          )}
        </PullToRefresh>
      )}
    </Page>
  );
}
