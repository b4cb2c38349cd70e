import { useEffect, useRef, useState } from 'react';
import { ProgressBar } from 'antd-mobile';
import { forgetUnfinished, unfinishedUploads, uploadToDisk } from '../../../api/disk';
import { diskReason, useDiskT } from '../../../i18n/disk';

interface Row { key: number; name: string; phase: 'hash' | 'send' | 'done' | 'error'; pct: number; error?: string }

/** The upload button, its progress rows, and uploads a reload left unfinished (resumed by picking the file again). */
export function DiskUploads({ parent, onUploaded }: { parent: string | undefined; onUploaded: () => void }) {
  const m = useDiskT();
  const input = useRef<HTMLInputElement>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [pending, setPending] = useState<{ name: string; key: string }[]>([]);
  const seq = useRef(0);

  const loadPending = () => void unfinishedUploads().then(setPending);
  useEffect(loadPending, []);

  const patch = (key: number, change: Partial<Row>) => setRows((list) => list.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const start = (file: File) => {
    const key = ++seq.current;
    setRows((list) => [...list, { key, name: file.name, phase: 'hash', pct: 0 }]);
    void uploadToDisk(file, parent, {
      onHashing: (done, total) => patch(key, { pct: total ? Math.floor((done / total) * 100) : 100 }),
      onProgress: (sent, total) => patch(key, { phase: 'send', pct: total ? Math.floor((sent / total) * 100) : 100 }),
      onDone: () => {
        patch(key, { phase: 'done', pct: 100 });
        loadPending();
        onUploaded();
      },
      onError: (err) => patch(key, { phase: 'error', error: diskReason(m, err) }),
    });
  };

  return (
    <div className="mw-disk-uploads">
      <input ref={input} type="file" multiple hidden data-field="disk-file" onChange={(e) => {
        for (const f of Array.from(e.target.files ?? [])) start(f);
        e.target.value = '';
      }} />
      <button type="button" className="mw-disk-btn is-primary" data-action="disk-upload" onClick={() => input.current?.click()}>{m.diskUpload}</button>
      {pending.length > 0 && rows.every((r) => r.phase !== 'send') && (
        <div className="mw-disk-pending" data-pending={pending.length}>
          <div>{m.diskUnfinished}</div>
          {pending.map((p) => (
            <div key={p.key} className="mw-disk-pending-row">
              <span className="mw-disk-name">{p.name}</span>
              <a onClick={() => void forgetUnfinished(p.key).then(loadPending)}>{m.diskForget}</a>
            </div>
          ))}
        </div>
      )}
      {rows.map((r) => (
        <div key={r.key} className="mw-disk-progress" data-upload={r.name} data-phase={r.phase}>
          <div className="mw-disk-name">{r.name}</div>
          {r.phase === 'error' ? <div className="mw-disk-error" role="alert">{r.error}</div> : (
            <>
              <ProgressBar percent={r.pct} />
              <div className="mw-disk-sub">{r.phase === 'hash' ? m.diskHashing(r.pct) : r.phase === 'send' ? m.diskUploading(r.pct) : m.diskUploaded}</div>
            </>
          )}
        </div>
      ))}
    </div>
  );
}
