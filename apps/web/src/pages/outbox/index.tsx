import { useCallback, useEffect, useState } from 'react';
import { Button, Dialog, List, Tag } from 'antd-mobile';
import { SendOutline } from 'antd-mobile-icons';
import { useOfflineT } from '../../i18n/offline';
import type { OutboxItem } from '../../offline/db';
import { outboxItems, removeFromOutbox, replay, retryOutboxItem } from '../../offline/queue';
import { useOfflineStatus } from '../../offline/status';
import { formatDateTime } from '../../ui/date-time';
import { Page } from '../../ui/page';
import { EmptyState } from '../../ui/state-view';
import { TAB_ROUTES } from '../../ui/tab-layout';
import './outbox.css';

/** Issue 15: mail written offline, waiting to be sent once the connection is back. */
export default function OutboxPage() {
  const m = useOfflineT();
  const [items, setItems] = useState<OutboxItem[] | null>(null);
  const offline = useOfflineStatus((s) => s.offline);
  const syncing = useOfflineStatus((s) => s.syncing);
  const count = useOfflineStatus((s) => s.outbox);
  const load = useCallback(() => void outboxItems().then(setItems, () => setItems([])), []);
  // The list follows the outbox: a replay that sends or fails an item changes the count.
  useEffect(load, [load, count, syncing]);

  const remove = async (item: OutboxItem) => {
    const ok = await Dialog.confirm({ content: m.removeConfirm, confirmText: m.remove, cancelText: m.cancel });
    if (!ok) return;
    await removeFromOutbox(item.key);
    load();
  };

  return (
    <Page title={m.outboxTitle} back={TAB_ROUTES.mailbox}>
      <div className="mw-outbox-note">{m.outboxNote}</div>
      {items && items.length === 0 && <EmptyState text={m.outboxEmpty} icon={<SendOutline />} />}
      {items && items.length > 0 && (
        <List className="mw-outbox-list">
          {items.map((item) => (
            <List.Item
              key={item.key}
              data-outbox={item.state}
              description={
                <div className="mw-outbox-meta">
                  <div className="mw-outbox-to">{item.to}</div>
                  <div>{formatDateTime(Math.floor(item.createdAt / 1000))}</div>
                  {item.state === 'failed' && item.error && <div className="mw-outbox-error">{item.error}</div>}
                  <div className="mw-outbox-actions">
                    {item.state === 'failed' && (
                      <Button size="small" color="primary" fill="outline" disabled={offline} onClick={() => void retryOutboxItem(item.key).then(load)}>{m.retry}</Button>
                    )}
                    <Button size="small" color="danger" fill="none" onClick={() => void remove(item)}>{m.remove}</Button>
                  </div>
                </div>
              }
              extra={<Tag color={item.state === 'failed' ? 'danger' : 'warning'} fill="outline">{item.state === 'failed' ? m.failed : m.waiting}</Tag>}
            >
              <span className="mw-outbox-subject">{item.subject || m.noSubject}</span>
            </List.Item>
          ))}
        </List>
      )}
      {items && items.some((i) => i.state === 'waiting') && !offline && (
        <div className="mw-outbox-footer">
          <Button block color="primary" loading={syncing} onClick={() => void replay().then(load)}>{m.sendNow}</Button>
        </div>
      )}
    </Page>
  );
}
