import { useState } from 'react';
import { Button, Input } from 'antd-mobile';
import type { WestMe } from '@mailwing/shared';
import { westApi } from '../../../api/west';
import type { WestMessages } from '../../../i18n/west';
import { ApiError } from '../../../api/request';
import { toastError } from '../west-ui';

/** The real-name profile, with the spec §5 name rules checked by the server's schema. */
export function ProfileForm({ m, me, onSaved }: { m: WestMessages; me: WestMe; onSaved: (me: WestMe) => void }) {
  const [kind, setKind] = useState<'zh' | 'en'>(me.profile.nameKind === 'en' ? 'en' : 'zh');
  const [v, setV] = useState({ firstName: me.profile.firstName ?? '', lastName: me.profile.lastName ?? '', city: me.profile.city ?? '', zip: me.profile.zip ?? '' });
  const [bad, setBad] = useState<Record<string, string>>({});
  const save = async () => {
    try {
      setBad({});
      onSaved(await westApi.saveProfile({ nameKind: kind, ...v }));
    } catch (err) {
      if (err instanceof ApiError && err.code === 422) setBad(err.fields);
      else toastError(err, m);
    }
  };
  const field = (key: keyof typeof v, label: string) => (
    <>
      <label className="mw-field">
        <span className="mw-field-label">{label}</span>
        <Input value={v[key]} onChange={(x) => setV({ ...v, [key]: x })} />
      </label>
      {bad[key] && <div className="mw-field-error" role="alert">{m.westFieldInvalid}</div>}
    </>
  );
  return (
    <>
      <label className="mw-field">
        <span className="mw-field-label">{m.westNameKind}</span>
        <select className="mw-west-select" value={kind} onChange={(e) => setKind(e.target.value as 'zh' | 'en')}>
          <option value="zh">{m.westNameZh}</option>
          <option value="en">{m.westNameEn}</option>
        </select>
      </label>
      {field('lastName', m.westLastName)}
      {field('firstName', m.westFirstName)}
      {field('city', m.westCity)}
      {field('zip', m.westZip)}
      <Button block onClick={() => void save()}>{m.westSave}</Button>
    </>
  );
}
