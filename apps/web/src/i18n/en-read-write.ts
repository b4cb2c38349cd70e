// English strings of reading and writing mail added by issue 14 (bottom bar, reply titles,
// undo send, refused recipients). They load with the read and write pages only.
export const enReadWrite = {
  moreActions: 'More',
  titleReply: 'Reply',
  titleForward: 'Forward',
  sendingMail: 'Sending…',
  undo: 'Undo',
  sendUndone: 'Sending undone: the mail is back in Drafts',
  undoTooLate: 'Too late to undo: the mail has been sent',
  mailSent: 'Sent',
  undoSendSetting: 'Undo send',
  undoSendOff: 'Off',
  undoSendSeconds: (n: number) => `${n} s`,
  undoSendHint: 'How long you can take a mail back after pressing Send. Nothing leaves the server before then.',
  /** Refusals of write/send by reason code (API.md); the address is shown beside it. */
  sendReasons: {
    'send.no_such_mailbox': 'No such mailbox',
  } as Record<string, string>,
  refusedRecipient: (address: string, why: string) => `${address}: ${why}`,
  recipientRefused: 'A recipient was refused',
  // Location pages (issue 15 §6): the compose option that opens /choose-location.
  insertLocation: 'Location',
  // Conversations (issue 14, scope 2)
  showQuoted: 'Show quoted text',
  hideQuoted: 'Hide quoted text',
  openThisMail: 'Open this mail',
  convUnread: 'Mark conversation unread',
  convMove: 'Move conversation',
  convDelete: 'Delete conversation',
  conversationViewHint: 'Show a thread as one row in the lists, and its mails stacked when opened.',
  conversationOn: 'On: one row per conversation',
  conversationOff: 'Off: one row per mail',
};
