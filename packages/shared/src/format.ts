// Display formatters of spec §9, used by the client and by server-side texts.

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes as B/KB/MB/GB/TB with two decimals (spec §9). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0.00 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(2)} ${SIZE_UNITS[unit]}`;
}

export interface MailTimeWords {
  justNow: string;
  minutesAgo: (n: number) => string;
  today: string;
  yesterday: string;
  dayBeforeYesterday: string;
}

export const MAIL_TIME_WORDS_EN: MailTimeWords = {
  justNow: 'just now',
  minutesAgo: (n) => new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(-n, 'minute'),
  today: 'Today',
  yesterday: 'Yesterday',
  dayBeforeYesterday: 'Day before yesterday',
};

export const MAIL_TIME_WORDS_ZH: MailTimeWords = {
  justNow: '刚刚',
  minutesAgo: (n) => new Intl.RelativeTimeFormat('zh', { numeric: 'auto' }).format(-n, 'minute'),
  today: '今天',
  yesterday: '昨天',
  dayBeforeYesterday: '前天',
};

const pad = (n: number): string => String(n).padStart(2, '0');

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/**
 * Mail time (spec §9): under an hour, "just now" or N minutes ago; today,
 * yesterday and the day before with hh:mm; earlier this year month-day and
 * time; earlier years the full date. `seconds` is unix seconds; local time.
 */
export function formatMailTime(seconds: number, now: Date = new Date(), words: MailTimeWords = MAIL_TIME_WORDS_EN): string {
  const date = new Date(seconds * 1000);
  const diffMs = now.getTime() - date.getTime();
  if (diffMs >= 0 && diffMs < 3_600_000) {
    const minutes = Math.floor(diffMs / 60_000);
    return minutes < 1 ? words.justNow : words.minutesAgo(minutes);
  }
  const hm = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const days = Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000);
  if (days === 0) return `${words.today} ${hm}`;
  if (days === 1) return `${words.yesterday} ${hm}`;
  if (days === 2) return `${words.dayBeforeYesterday} ${hm}`;
  if (date.getFullYear() === now.getFullYear()) return `${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${hm}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The badge text for a count: none at 0, capped at 999 ("999+"). */
export function badgeText(count: number, max = 999): string | null {
  if (!(count > 0)) return null;
  return count > max ? `${max}+` : String(count);
}

/** Icon kind for an attachment, chosen by file extension (spec §3). */
export function attachmentKind(name: string): 'image' | 'pdf' | 'word' | 'excel' | 'ppt' | 'zip' | 'audio' | 'video' | 'text' | 'file' {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  if (['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp', 'svg', 'heic'].includes(ext)) return 'image';
  if (ext === 'pdf') return 'pdf';
  if (['doc', 'docx', 'wps', 'odt', 'rtf'].includes(ext)) return 'word';
  if (['xls', 'xlsx', 'csv', 'ods', 'et'].includes(ext)) return 'excel';
  if (['ppt', 'pptx', 'odp', 'dps'].includes(ext)) return 'ppt';
  if (['zip', 'rar', '7z', 'gz', 'tar', 'bz2', 'xz'].includes(ext)) return 'zip';
  if (['mp3', 'wav', 'aac', 'flac', 'ogg', 'm4a', 'amr'].includes(ext)) return 'audio';
  if (['mp4', 'mov', 'm4v', '3gp', 'avi', 'wmv', 'flv', 'mkv', 'webm'].includes(ext)) return 'video';
  if (['txt', 'md', 'log', 'eml', 'html', 'htm', 'json', 'xml'].includes(ext)) return 'text';
  return 'file';
}
