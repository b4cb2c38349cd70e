import type { enReadWrite } from './en-read-write';

// 第 14 号问题新增的读信、写信文字（底栏、回复标题、撤销发送、被拒收件人）。
export const zhReadWrite: typeof enReadWrite = {
  moreActions: '更多',
  titleReply: '回复',
  titleForward: '转发',
  sendingMail: '正在发送…',
  undo: '撤销',
  sendUndone: '已撤销发送，邮件已回到草稿箱',
  undoTooLate: '来不及撤销了：邮件已发出',
  mailSent: '已发送',
  undoSendSetting: '撤销发送',
  undoSendOff: '关闭',
  undoSendSeconds: (n: number) => `${n} 秒`,
  undoSendHint: '按下发送后可以撤回邮件的时长。在此之前，邮件不会离开服务器。',
  sendReasons: {
    'send.no_such_mailbox': '该邮箱不存在',
  },
  refusedRecipient: (address: string, why: string) => `${address}：${why}`,
  recipientRefused: '有收件人被拒绝',
  // 位置页（第 15 号问题 §6）：写信页打开 /choose-location 的选项。
  insertLocation: '位置',
  // Conversations (issue 14, scope 2)
  showQuoted: '显示引用内容',
  hideQuoted: '隐藏引用内容',
  openThisMail: '查看此邮件',
  convUnread: '整个会话标为未读',
  convMove: '移动整个会话',
  convDelete: '删除整个会话',
  conversationViewHint: '在列表中将同一会话显示为一行，打开后按时间顺序叠放其中的邮件。',
  conversationOn: '开启：每个会话一行',
  conversationOff: '关闭：每封邮件一行',
};
