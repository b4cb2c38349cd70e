import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { SoundOutline } from 'antd-mobile-icons';
import { announcementApi } from '../../../api/migrate';
import { useLanguage } from '../../../i18n';
import './banner.css';

export const ANNOUNCEMENTS_ROUTE = '/pages/modules/announcements/index';

/**
 * One line over the inbox when there are unread announcements, asked for once per open
 * and after the inbox is on screen. Kept tiny and without the page's catalogue: it is
 * fetched lazily by the inbox, and its words are two short strings.
 */
export default function AnnouncementBanner() {
  const navigate = useNavigate();
  const zh = useLanguage() === 'zh';
  const [latest, setLatest] = useState<{ title: string; unread: number } | null>(null);
  useEffect(() => {
    let live = true;
    announcementApi.list(true).then((r) => {
      const first = r.list.find((a) => !a.read);
      if (live && first) setLatest({ title: first.title, unread: r.unread });
    }, () => undefined);
    return () => { live = false; };
  }, []);
  if (!latest) return null;
  return (
    <button type="button" className="mw-ann-banner" onClick={() => navigate(ANNOUNCEMENTS_ROUTE)}>
      <SoundOutline aria-hidden="true" />
      <span className="mw-ann-banner-text">{latest.title}</span>
      {latest.unread > 1 && <span className="mw-ann-banner-count">{zh ? `${latest.unread} 条` : `+${latest.unread - 1}`}</span>}
    </button>
  );
}
