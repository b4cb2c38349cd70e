import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Dialog, SpinLoading, Toast } from 'antd-mobile';
import { DownOutline, StarFill, UpOutline } from 'antd-mobile-icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { formatMailTime, SystemFolder, type Address, type Conversation, type Mail } from '@mailwing/shared';
import { api, refreshMbox } from '../../api/endpoints';
import { organiseApi } from '../../api/organise';
import { loadConversation } from '../../api/conversation';
import type { ApiError } from '../../api/request';
import { timeWords } from '../../i18n';
import { useOrganiseT } from '../../i18n/organise';
import { Avatar } from '../../ui/avatar';
import { Page } from '../../ui/page';
import { ErrorState } from '../../ui/state-view';
import { TAG_LIST_ROUTE, type MailPickState } from '../../ui/folder-mail-view';
import { TagChips } from '../../ui/tag-chips';
import { WRITE_ROUTE } from '../../ui/compose-button';
import { TAB_ROUTES } from '../../ui/tab-layout';
import type { ChooseDirState } from '../modules/choose-dir';
import { AttachmentList } from './attachment-list';
import { DeliveryList, ScheduledBar } from './mail-extras';
import { ConversationStack, QuotedBody } from './conversation-stack';
import { ReadActions, type MoreAction } from './read-actions';
import { useReadWriteT } from '../../i18n/read-write';
import { MailNote } from './mail-note';
import { authSummary, SenderNotice } from './sender-notice';

// Only mails with a text/calendar part load the calendar's invitation card (and its strings).
const InviteCard = lazy(() => import('../modules/calendar/invite-card'));
const isInvite = (mail: Mail) => mail.attachments.some((a) => /^(text\/calendar|application\/ics)/i.test(a.contentType));

function label(a: Address): string {
  return a.name ? `${a.name} <${a.address}>` : a.address;
}

/** Read mail (?mid=<mail id>): header, body, attachments and the mail actions. */
export default function ReadMailPage() {
  const m = useOrganiseT();
  const rw = useReadWriteT();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const id = params.get('mid') ?? '';
  const [mail, setMail] = useState<Mail | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [expanded, setExpanded] = useState(false);
  // The conversation this mail is part of (issue 14): the others stack around it.
  const [conv, setConv] = useState<Conversation | null>(null);

  const load = useCallback(async (images = false) => {
    setFailed(null);
    try {
      const result = await api.readMail(id, images);
      // A draft is continued where it is written (opened here from a link or the address bar).
      if (result.mid === SystemFolder.Drafts) {
        navigate(`${WRITE_ROUTE}?draft=${encodeURIComponent(result.id)}`, { replace: true });
        return;
      }
      setMail(result);
      // Opening marked it read on the server; bring the counts and badge along.
      void refreshMbox();
    } catch (error) {
      setFailed((error as ApiError).code === 404 ? m.mailNotFound : m.loadFailed);
    }
  }, [id, m.loadFailed, m.mailNotFound, navigate]);

  useEffect(() => {
    setMail(null);
    setExpanded(false);
    setConv(null);
    // Quiet: without it the mail still reads as a single one.
    loadConversation(id).then(setConv, () => undefined);
    void load();
    // Reload only when the mail changes, not when the language does.
  }, [id]);

  const leave = () => {
    void refreshMbox();
    if (location.key === 'default') navigate(TAB_ROUTES.inbox, { replace: true });
    else navigate(-1);
  };

  const act = async (work: () => Promise<unknown>, done: string, then?: () => void) => {
    try {
      await work();
    } catch {
      return; // the request layer has shown why
    }
    Toast.show({ content: done });
    then?.();
  };

  const onDelete = async (current: Mail) => {
    // In Deleted, delete is for good (spec §4), so ask first.
    if (current.mid === SystemFolder.Deleted) {
      const sure = await Dialog.confirm({ content: m.purgeConfirm, confirmText: m.delete, cancelText: m.cancel });
      if (sure) await act(() => api.purge([current.id]), m.purged, leave);
      return;
    }
    await act(() => api.remove([current.id]), m.deleted, leave);
  };

  const openOther = (other: string | null) => {
    if (other) navigate(`/pages/read-mail/index?mid=${encodeURIComponent(other)}`, { replace: true });
  };

  const composeFrom = (param: 'reply' | 'replyAll' | 'forward' | 'draft', mid: string) =>
    navigate(`${WRITE_ROUTE}?${param}=${encodeURIComponent(mid)}`, { replace: param === 'draft' });

  // Both cancel and edit take the timed mail back to Drafts; edit then continues it there.
  const cancelTimed = async (current: Mail, edit: boolean) => {
    let draft: string;
    try {
      draft = (await api.cancelTimed(current.id)).id;
    } catch {
      return;
    }
    void refreshMbox();
    if (edit) composeFrom('draft', draft);
    else {
      Toast.show({ content: m.timedCancelled });
      leave();
    }
  };

  const nav = mail && (
    <span className="mw-nav-arrows">
      <a aria-label={m.previous} className={mail.prevId ? '' : 'is-disabled'} onClick={() => openOther(mail.prevId)}><UpOutline /></a>
      <a aria-label={m.next} className={mail.nextId ? '' : 'is-disabled'} onClick={() => openOther(mail.nextId)}><DownOutline /></a>
    </span>
  );

  const inConv = conv && conv.list.length > 1 ? conv : null;
  // Conversation actions (issue 14) beside the single mail's.
  const convMore = (current: Mail): MoreAction[] => (inConv ? [
    { key: 'conv-unread', text: rw.convUnread, onPress: () => void act(() => api.conv('read', [inConv.id], { read: false, from: current.mid }), m.markedUnread, leave) },
    {
      key: 'conv-move', text: rw.convMove,
      onPress: () => {
        const state: ChooseDirState = { backSteps: location.key === 'default' ? 0 : 2 };
        navigate(`/pages/modules/choose-dir/index?convs=${encodeURIComponent(inConv.id)}&from=${encodeURIComponent(current.mid)}`, { state });
      },
    },
    { key: 'conv-delete', text: rw.convDelete, danger: true, onPress: () => void act(() => api.conv('delete', [inConv.id], { from: current.mid }), m.deleted, leave) },
  ] : []);

  const more = (current: Mail): MoreAction[] => [
    {
      key: 'star', text: current.star ? m.unstar : m.star,
      onPress: () => void act(() => api.star([current.id], !current.star), current.star ? m.unstarredDone : m.starredDone, () => setMail({ ...current, star: !current.star })),
    },
    { key: 'unread', text: m.unreadShort, onPress: () => void act(() => api.markRead([current.id], false), m.markedUnread, leave) },
    {
      key: 'move', text: m.move,
      onPress: () => {
        const state: ChooseDirState = { backSteps: location.key === 'default' ? 0 : 2 };
        navigate(`/pages/modules/choose-dir/index?ids=${encodeURIComponent(current.id)}&from=${encodeURIComponent(current.mid)}`, { state });
      },
    },
    {
      key: 'mark-as', text: m.markAs,
      onPress: () => {
        const state: MailPickState = { backSteps: 1, mailTags: [current.tags] };
        navigate(`${TAG_LIST_ROUTE}?ids=${encodeURIComponent(current.id)}`, { state });
      },
    },
    ...(current.mid !== SystemFolder.MailHistory ? [{ key: 'archive', text: m.archive, onPress: () => void act(() => organiseApi.archive([current.id]), m.archived, leave) }] : []),
    ...(current.mid !== SystemFolder.Spam ? [{ key: 'junk', text: m.junkShort, onPress: () => void act(() => api.junk([current.id]), m.reportedJunk, leave) }] : []),
    { key: 'delete', text: m.delete, danger: true, onPress: () => void onDelete(current) },
    ...(current.mid !== SystemFolder.Deleted ? convMore(current) : []),
  ];

  const footer = mail && (
    <ReadActions
      labels={{ reply: m.reply, replyAll: m.replyAll, forward: m.forward, more: rw.moreActions, cancel: m.cancel }}
      canReply={mail.sendAt === null}
      onCompose={(param) => composeFrom(param, mail.id)}
      more={more(mail)}
    />
  );

  const others = mail ? [...mail.to, ...mail.cc] : [];
  const at = inConv && mail ? inConv.list.findIndex((x) => x.id === mail.id) : -1;
  const before = inConv && at >= 0 ? inConv.list.slice(0, at) : [];
  const after = inConv && at >= 0 ? inConv.list.slice(at + 1) : [];
  const openOne = (other: string) => navigate(`/pages/read-mail/index?mid=${encodeURIComponent(other)}`);
  return (
    <Page title={m.titleReadMail} back={TAB_ROUTES.inbox} right={nav} footer={footer}>
      {failed ? (
        <ErrorState text={failed} onRetry={() => void load()} />
      ) : !mail ? (
        <div className="mw-center"><SpinLoading color="primary" /></div>
      ) : (
        <article className="mw-read">
          <h1 className="mw-read-subject">
            {mail.urgent && <span className="mw-urgent">{m.urgent}</span>}
            {mail.subject || m.noSubject}
            {mail.star && <StarFill className="mw-star" aria-label={m.starred} />}
          </h1>
          {mail.tags.length > 0 && (
            <div className="mw-read-tags">
              <TagChips names={mail.tags} />
            </div>
          )}
          {inConv && <div className="mw-stack-count" data-conversation={inConv.id}>{m.conversation(inConv.list.length)}</div>}
          <ConversationStack key={`b${mail.id}-${inConv?.id ?? ''}`} items={before} onOpen={openOne} />
          <div className="mw-read-head">
            <Avatar src={mail.fromAvatar} name={mail.from.name || mail.from.address} address={mail.from.address} />
            <div className="mw-read-meta">
              <div className="mw-read-from">
                <span className="mw-read-name">{mail.from.name || mail.from.address || m.noSender}</span>
                <a className="mw-read-toggle" onClick={() => setExpanded(!expanded)}>{expanded ? m.hideDetails : m.details}</a>
              </div>
              {expanded ? (
                <dl className="mw-read-details">
                  <dt>{m.from}</dt><dd>{label(mail.from)}</dd>
                  <dt>{m.to}</dt><dd>{mail.to.map(label).join(', ')}</dd>
                  {mail.cc.length > 0 && <><dt>{m.cc}</dt><dd>{mail.cc.map(label).join(', ')}</dd></>}
                  <dt>{m.date}</dt><dd>{new Date(mail.date * 1000).toLocaleString()}</dd>
                  {mail.auth && <><dt>{m.senderAuth}</dt><dd data-auth-summary>{authSummary(mail.auth, m.authResult)}</dd></>}
                </dl>
              ) : (
                <div className="mw-read-sub">
                  {m.to}: {others.slice(0, 1).map((a) => a.name || a.address).join('')}
                  {others.length > 1 ? ` +${others.length - 1}` : ''} · {formatMailTime(mail.date, new Date(), timeWords(m))}
                </div>
              )}
            </div>
          </div>
          <SenderNotice auth={mail.auth} />
          <MailNote key={mail.id} mid={mail.id} note={mail.note} onChange={(note) => setMail({ ...mail, note })} />
          {mail.remoteImages && !mail.imagesShown && (
            <div className="mw-images-bar">
              <span>{m.showImages}</span>
              <a onClick={() => void load(true)}>{m.showImagesAction}</a>
            </div>
          )}
          {mail.sendAt !== null && (
            <ScheduledBar sendAt={mail.sendAt} onCancel={() => void cancelTimed(mail, false)} onEdit={() => void cancelTimed(mail, true)} />
          )}
          <div className="mw-read-body">
            <QuotedBody key={mail.id} mail={mail} fold={Boolean(inConv)} />
          </div>
          {isInvite(mail) && <Suspense fallback={null}><InviteCard mailId={mail.id} /></Suspense>}
          <AttachmentList attachments={mail.attachments} mailId={mail.id} />
          <DeliveryList mail={mail} onRecalled={() => void load()} />
          <ConversationStack key={`a${mail.id}-${inConv?.id ?? ''}`} items={after} onOpen={openOne} />
        </article>
      )}
    </Page>
  );
}
