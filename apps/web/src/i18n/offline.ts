import { getLanguage, useLanguage, type Language } from './index';

// Issue 15, scope 3: the offline layer's words. Loaded with that layer, after the first screen.

const en = {
  offlineBanner: 'Offline: showing saved mail',
  syncingBanner: 'Back online: sending what waited…',
  outboxLink: (n: number) => `Outbox (${n})`,
  outboxTitle: 'Outbox',
  outboxEmpty: 'Nothing is waiting to be sent.',
  outboxNote: 'Mail written offline waits here and is sent once when the connection is back.',
  waiting: 'Waiting for the network',
  failed: 'Not sent',
  noSubject: '(no subject)',
  sendNow: 'Send now',
  retry: 'Retry',
  remove: 'Delete',
  removeConfirm: 'Delete this mail from the outbox? It will not be sent.',
  cancel: 'Cancel',
  queuedToast: 'You are offline. The mail waits in the outbox and is sent when you are back online.',
  sentToast: (n: number) => (n === 1 ? 'The mail that waited in the outbox has been sent.' : `${n} mails that waited in the outbox have been sent.`),
  conflictToast: (n: number) => (n === 1
    ? 'A change you made offline was not applied: the mail was changed or removed meanwhile. Showing it as it is now.'
    : `${n} changes you made offline were not applied: the mails were changed or removed meanwhile. Showing them as they are now.`),
  notKept: 'This attachment was not saved for offline use. Open it when you are back online.',
  logoutOutboxTitle: 'Mail not sent yet',
  logoutOutbox: (n: number) => (n === 1
    ? '1 mail is waiting in the outbox. Logging out deletes it from this device and it will not be sent.'
    : `${n} mails are waiting in the outbox. Logging out deletes them from this device and they will not be sent.`),
  logoutDiscard: 'Log out and discard',
  logoutSending: 'Sending the mail in the outbox…',
  logoutSyncing: 'Saving your changes…',
};

export type OfflineMessages = typeof en;

const zh: OfflineMessages = {
  offlineBanner: '离线：显示已保存的邮件',
  syncingBanner: '已恢复联网：正在发送待发邮件…',
  outboxLink: (n) => `发件箱（${n}）`,
  outboxTitle: '发件箱',
  outboxEmpty: '没有待发送的邮件。',
  outboxNote: '离线时写的邮件在此等待，联网后只发送一次。',
  waiting: '等待联网',
  failed: '未发送',
  noSubject: '（无主题）',
  sendNow: '立即发送',
  retry: '重试',
  remove: '删除',
  removeConfirm: '从发件箱删除这封邮件？删除后不会发送。',
  cancel: '取消',
  queuedToast: '当前离线。邮件已放入发件箱，联网后自动发送。',
  sentToast: (n) => (n === 1 ? '发件箱中等待的邮件已发送。' : `发件箱中等待的 ${n} 封邮件已发送。`),
  conflictToast: (n) => `你离线时的 ${n} 项操作未生效：邮件已在服务器上被更改或删除，现显示服务器上的最新状态。`,
  notKept: '该附件未保存到离线缓存，请联网后再打开。',
  logoutOutboxTitle: '有邮件尚未发送',
  logoutOutbox: (n) => `发件箱中有 ${n} 封邮件等待发送。退出登录会从本设备删除，且不会发送。`,
  logoutDiscard: '退出并丢弃',
  logoutSending: '正在发送发件箱中的邮件…',
  logoutSyncing: '正在同步你的操作…',
};

const catalogues: Record<Language, OfflineMessages> = { en, zh };

export function useOfflineT(): OfflineMessages {
  return catalogues[useLanguage()];
}

/** Outside React (the banner, replay toasts): the current language's words. */
export function offlineMessages(): OfflineMessages {
  return catalogues[getLanguage()];
}
