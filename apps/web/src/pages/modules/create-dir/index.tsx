import { useEffect, useState } from 'react';
import { Button, Input, List, Toast } from 'antd-mobile';
import { CheckOutline, FolderOutline } from 'antd-mobile-icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { refreshMbox } from '../../../api/endpoints';
import { organiseApi } from '../../../api/organise';
import type { ApiError } from '../../../api/request';
import { useOrganiseT } from '../../../i18n/organise';
import { useSession } from '../../../state/session';
import { folderTree } from '../../../ui/folder-list';
import { folderNameMessage, folderNameProblem, tooDeep } from '../../../ui/folder-rules';
import { Page } from '../../../ui/page';

const DIR_LIST = '/pages/modules/dir-list/index';

/** New folder: a name and where it goes (top level or inside a folder, at most 3 levels deep). ?parent= preselects. */
export default function CreateDirPage() {
  const m = useOrganiseT();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const mbox = useSession((s) => s.mbox);
  const custom = mbox?.custom ?? [];
  const [name, setName] = useState('');
  const [parent, setParent] = useState(params.get('parent') ?? '');
  const [errors, setErrors] = useState<{ name?: string; parent?: string }>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void refreshMbox();
  }, []);

  const deep = tooDeep(custom, parent || undefined);
  const parentError = errors.parent ?? (deep ? m.folderTooDeep : undefined);

  const submit = async () => {
    const problem = folderNameProblem(name, custom, parent || undefined);
    const next = { name: problem ? folderNameMessage(m, problem) : undefined, parent: deep ? m.folderTooDeep : undefined };
    setErrors(next);
    if (next.name || next.parent) return;
    setBusy(true);
    try {
      await organiseApi.createFolder(name.trim(), parent || undefined);
    } catch (e) {
      const err = e as ApiError;
      // The server's refusal, by field, already in the user's language (its reason codes).
      if (err.fields.parent || err.fields.name) {
        setErrors({ name: err.fields.name, parent: err.fields.parent });
      } else if (err.code !== 0) {
        Toast.show({ content: err.message });
      } else {
        Toast.show({ content: m.requestFailedRetry });
      }
      return;
    } finally {
      setBusy(false);
    }
    Toast.show({ content: m.folderCreated });
    await refreshMbox();
    if (location.key === 'default') navigate(DIR_LIST, { replace: true });
    else navigate(-1);
  };

  const pick = (mid: string) => {
    setParent(mid);
    setErrors((e) => ({ ...e, parent: undefined }));
  };

  return (
    <Page title={m.titleCreateDir} back={DIR_LIST}>
      <form
        className="mw-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="mw-field">
          <span className="mw-field-label">{m.folderName}</span>
          <Input name="folder-name" value={name} placeholder={m.folderNamePlaceholder} maxLength={64} clearable autoFocus onChange={(v) => {
            setName(v);
            setErrors((e) => ({ ...e, name: undefined }));
          }} />
        </label>
        {errors.name && <div className="mw-field-error" role="alert" data-field="name">{errors.name}</div>}
        <List header={m.folderParent} className="mw-parent-list">
          <List.Item
            data-parent=""
            prefix={<FolderOutline className="mw-folder-icon" />}
            extra={parent === '' ? <CheckOutline className="mw-check" /> : null}
            arrowIcon={false}
            onClick={() => pick('')}
          >
            {m.topLevel}
          </List.Item>
          {folderTree(custom).map(({ folder, depth }) => (
            <List.Item
              key={folder.mid}
              data-parent={folder.mid}
              prefix={<FolderOutline className="mw-folder-icon" style={{ marginLeft: (depth + 1) * 16 }} />}
              extra={parent === folder.mid ? <CheckOutline className="mw-check" /> : null}
              arrowIcon={false}
              onClick={() => pick(folder.mid)}
            >
              {folder.name}
            </List.Item>
          ))}
        </List>
        {parentError && <div className="mw-field-error" role="alert" data-field="parent">{parentError}</div>}
        <div className="mw-hint">{m.folderRules}</div>
        <div className="mw-padded">
          <Button block type="submit" color="primary" loading={busy} disabled={busy}>{m.create}</Button>
        </div>
      </form>
    </Page>
  );
}
