import { useEffect, useState } from 'react';
import { Button, Dialog, Input, List, Picker, Selector, SpinLoading, Stepper, Switch, Toast } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { COLLECT_INTERVAL_MAX, COLLECT_INTERVAL_MIN, COLLECT_PRESETS, type Folder } from '@mailwing/shared';
import { collectApi, type CollectForm } from '../../../api/collect';
import { api } from '../../../api/endpoints';
import type { ApiError } from '../../../api/request';
import { useCollectT } from '../../../i18n/collect';
import { folderName } from '../../../ui/folder-name';
import { Page } from '../../../ui/page';
import '../setting-pop/collect.css';

const LIST = '/pages/modules/setting-pop/index';
const BLANK: CollectForm = { protocol: 'pop3', host: '', port: 995, tls: 'tls', username: '', password: '', leaveCopy: true, folder: '0', interval: 15 };
/** A login's domain → the preset that serves it. */
const DOMAINS: Record<string, string> = { 'qq.com': 'qq', '163.com': '163', '126.com': '126', 'gmail.com': 'gmail', 'outlook.com': 'outlook', 'hotmail.com': 'outlook', 'live.com': 'outlook' };

/** Add or edit a mailbox to collect from: presets, the connection test, leave-a-copy, folder, interval. */
export default function SettingPopEditPage() {
  const m = useCollectT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? undefined;
  const [form, setForm] = useState<CollectForm | null>(id ? null : BLANK);
  const [preset, setPreset] = useState<string>('other');
  const [folders, setFolders] = useState<Folder[]>([]);
  const [folderOpen, setFolderOpen] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void api.mboxIndex(false).then((idx) => setFolders([...idx.system.filter((f) => f.mid === '0'), ...idx.custom])).catch(() => undefined);
    if (!id) return;
    void collectApi.get(id).then((a) => {
      setForm({ protocol: a.protocol, host: a.host, port: a.port, tls: a.tls, username: a.username, password: '', leaveCopy: a.leaveCopy, folder: a.folder, interval: a.interval });
      setPreset(COLLECT_PRESETS.find((p) => p[a.protocol].host === a.host)?.id ?? 'other');
    }).catch(() => navigate(LIST, { replace: true }));
  }, [id]);

  if (!form) return <Page title={m.titleCollectEdit} back={LIST}><div className="mw-center"><SpinLoading color="primary" /></div></Page>;

  const set = (patch: Partial<CollectForm>) => {
    setForm({ ...form, ...patch });
    setResult(null);
  };
  const applyPreset = (pid: string, protocol = form.protocol) => {
    setPreset(pid);
    const p = COLLECT_PRESETS.find((x) => x.id === pid);
    set(p ? { protocol, ...p[protocol] } : { protocol });
  };
  const guessPreset = () => {
    const domain = form.username.split('@')[1]?.toLowerCase() ?? '';
    if (!form.host && DOMAINS[domain]) applyPreset(DOMAINS[domain]);
  };
  const refusal = (err: ApiError) => {
    const kind = err.reason?.startsWith('collect.') ? err.reason.slice('collect.'.length) : '';
    const words = m.collectErr[kind];
    // The server's own reply line helps the user (or their provider's help page) more than our words alone.
    const reply = err.fields.host ?? '';
    setResult({ ok: false, text: words ? `${words}${reply ? `\n${reply}` : ''}` : err.message });
  };
  const ready = form.host.trim() && form.username.trim() && (id || form.password);

  const test = async () => {
    if (!ready) return setResult({ ok: false, text: m.collectRequired });
    setBusy(true);
    try {
      const r = await collectApi.test(form, id);
      setResult({ ok: true, text: m.collectTestOk(r.messages) });
    } catch (err) {
      refusal(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    if (!ready) return setResult({ ok: false, text: m.collectRequired });
    setBusy(true);
    try {
      if (id) await collectApi.update(id, form);
      else await collectApi.create(form);
      Toast.show({ icon: 'success', content: m.collectSaved });
      navigate(LIST, { replace: true });
    } catch (err) {
      refusal(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!id) return;
    const sure = await Dialog.confirm({ content: m.collectDeleteConfirm, confirmText: m.delete, cancelText: m.cancel });
    if (!sure) return;
    await collectApi.remove(id);
    navigate(LIST, { replace: true });
  };

  const folder = folders.find((f) => f.mid === form.folder);
  const presetNames: Record<string, string> = { qq: 'QQ', '163': '163', '126': '126', gmail: 'Gmail', outlook: 'Outlook', exmail: m.collectExmail, other: m.collectPresetOther };
  return (
    <Page title={id ? m.titleCollectEdit : m.titleCollectNew} back={LIST}>
      <List className="mw-collect-form" header={m.collectPreset}>
        <List.Item>
          <Selector
            className="mw-collect-presets"
            data-testid="collect-presets"
            columns={3}
            value={[preset]}
            options={[...COLLECT_PRESETS.map((p) => p.id), 'other'].map((p) => ({ label: presetNames[p], value: p }))}
            onChange={(v) => v[0] && applyPreset(v[0])}
          />
        </List.Item>
        <List.Item extra={
          <Selector columns={2} value={[form.protocol]} options={[{ label: 'POP3', value: 'pop3' }, { label: 'IMAP', value: 'imap' }]}
            onChange={(v) => v[0] && applyPreset(preset, v[0] as CollectForm['protocol'])} />
        }>{m.collectProtocol}</List.Item>
      </List>
      <List className="mw-collect-form mw-gap">
        <List.Item title={m.collectUser}>
          <Input data-testid="collect-user" value={form.username} placeholder={m.collectUserPlaceholder} autoComplete="off" onChange={(v) => set({ username: v.trim() })} onBlur={guessPreset} />
        </List.Item>
        <List.Item title={m.collectPassword}>
          <Input data-testid="collect-password" type="password" value={form.password} placeholder={id ? m.collectPasswordKeep : ''} autoComplete="new-password" onChange={(v) => set({ password: v })} />
        </List.Item>
        <List.Item title={m.collectHost}>
          <Input data-testid="collect-host" value={form.host} placeholder="pop.example.com" onChange={(v) => { setPreset('other'); set({ host: v.trim() }); }} />
        </List.Item>
        <List.Item title={m.collectPort}>
          <Input data-testid="collect-port" type="number" value={String(form.port)} onChange={(v) => set({ port: Number(v) || 0 })} />
        </List.Item>
        <List.Item title={m.collectSecurity}>
          <Selector columns={3} value={[form.tls]} data-testid="collect-tls"
            options={[{ label: m.collectTls, value: 'tls' }, { label: m.collectStarttls, value: 'starttls' }, { label: m.collectNone, value: 'none' }]}
            onChange={(v) => v[0] && set({ tls: v[0] as CollectForm['tls'] })} />
        </List.Item>
      </List>
      <List className="mw-collect-form mw-gap">
        <List.Item description={m.collectLeaveCopyHint} extra={<Switch data-testid="collect-leave" checked={form.leaveCopy} onChange={(v) => set({ leaveCopy: v })} />}>
          {m.collectLeaveCopy}
        </List.Item>
        <List.Item extra={folder ? folderName(m, folder) : ''} onClick={() => setFolderOpen(true)}>{m.collectFolder}</List.Item>
        <List.Item extra={
          <Stepper min={COLLECT_INTERVAL_MIN} max={COLLECT_INTERVAL_MAX} step={5} value={form.interval} formatter={(v) => m.collectMinutes(v ?? 0)}
            onChange={(v) => set({ interval: v })} />
        }>{m.collectInterval}</List.Item>
      </List>
      <Picker
        visible={folderOpen}
        onClose={() => setFolderOpen(false)}
        columns={[folders.map((f) => ({ label: folderName(m, f), value: f.mid }))]}
        value={[form.folder]}
        confirmText={m.ok}
        cancelText={m.cancel}
        onConfirm={(v) => v[0] && set({ folder: String(v[0]) })}
      />
      {result && <div className={`mw-collect-result ${result.ok ? 'ok' : 'bad'}`} data-testid="collect-result" style={{ whiteSpace: 'pre-line' }}>{result.text}</div>}
      <div className="mw-padded">
        <Button block fill="outline" color="primary" loading={busy} data-testid="collect-test" onClick={() => void test()}>{m.collectTest}</Button>
        <Button block color="primary" className="mw-gap" loading={busy} data-testid="collect-save" onClick={() => void save()}>{m.collectSave}</Button>
        {id && <Button block color="danger" fill="none" className="mw-gap" onClick={() => void remove()}>{m.collectDelete}</Button>}
      </div>
    </Page>
  );
}
