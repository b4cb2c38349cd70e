import { useRef } from 'react';
import { ActionSheet, Button, Dialog, Toast } from 'antd-mobile';
import { MoreOutline } from 'antd-mobile-icons';
import { calendarApi } from '../../../api/calendar';
import { useCalendarT } from '../../../i18n/calendar';
import { usePageLayer } from '../../../ui/page-layer';

/** Import and export .ics, and the private subscription link. */
export function CalendarMenu({ onImported }: { onImported: () => void }) {
  const t = useCalendarT();
  const file = useRef<HTMLInputElement>(null);
  const [layer, openLayer] = usePageLayer();

  const subscribe = async () => {
    let url: string;
    try {
      url = await calendarApi.feed();
    } catch {
      return;
    }
    await Dialog.alert({
      title: t.subscribe, confirmText: t.ok,
      content: (
        <div>
          <p style={{ wordBreak: 'break-all', userSelect: 'all' }} data-feed-url>{url}</p>
          <p style={{ color: '#888', fontSize: 13 }}>{t.subscribeHint}</p>
          <Button size="middle" onClick={() => void navigator.clipboard?.writeText(url).then(() => Toast.show({ content: t.copied }))}>{t.copy}</Button>
        </div>
      ),
    });
  };

  const open = () => openLayer((control) => (
    <ActionSheet {...control} closeOnAction cancelText={t.cancel} actions={[
      { key: 'import', text: t.importIcs, onClick: () => file.current?.click() },
      { key: 'export', text: t.exportIcs, onClick: () => window.open(calendarApi.exportUrl(), '_blank') },
      { key: 'subscribe', text: t.subscribe, onClick: () => void subscribe() },
      { key: 'revoke', text: t.unsubscribe, danger: true, onClick: () => void calendarApi.revokeFeed().then(() => Toast.show({ content: t.unsubscribed }), () => undefined) },
    ]} />
  ));

  const picked = async (f: File | undefined) => {
    if (!f) return;
    try {
      const r = await calendarApi.importIcs(await f.text(), Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Shanghai');
      Toast.show({ content: t.imported(r.imported, r.skipped) });
      onImported();
    } catch {
      // request() has told the user.
    }
  };

  return (
    <>
      <Button fill="none" size="small" aria-label={t.more} data-action="calendar-more" onClick={open}><MoreOutline fontSize={22} /></Button>
      <input ref={file} type="file" accept=".ics,text/calendar" hidden onChange={(e) => { void picked(e.target.files?.[0]); e.target.value = ''; }} />
      {layer}
    </>
  );
}
