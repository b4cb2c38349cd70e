import { useEffect, useState } from 'react';
import { Button, Input, Popup } from 'antd-mobile';
import { useDiskT } from '../../../i18n/disk';

/** Asks for a name (new folder, rename); the server checks it and its refusal shows under the field. */
export function NameSheet({ title, initial, open, error, onSubmit, onClose }: {
  title: string; initial: string; open: boolean; error: string; onSubmit: (name: string) => void; onClose: () => void;
}) {
  const m = useDiskT();
  const [name, setName] = useState(initial);
  useEffect(() => { if (open) setName(initial); }, [open, initial]);
  return (
    <Popup visible={open} onMaskClick={onClose} bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12, maxHeight: '85vh', overflowY: 'auto' }}>
      <div className="mw-disk-sheet">
      <h3 className="mw-disk-share-title">{title}</h3>
      <Input className="mw-disk-input" value={name} onChange={setName} maxLength={255} clearable autoFocus data-field="disk-name" onEnterPress={() => onSubmit(name)} />
      {error && <div className="mw-disk-error" role="alert">{error}</div>}
      <Button block color="primary" size="large" onClick={() => onSubmit(name)} data-action="disk-name-ok">{m.diskOk}</Button>
      <Button block size="large" className="mw-disk-cancel" onClick={onClose}>{m.diskCancel}</Button>
      </div>
    </Popup>
  );
}
