// Template variables (issue 16): {{recipient.name}}, {{recipient.email}}, {{sender.name}},
// {{sender.email}}, {{date}}, {{company}}. Pure, so the compose page and tests share it.

export interface TemplateContext {
  recipient?: { name?: string; email: string } | null;
  sender: { name?: string; email: string };
  company?: string;
  /** The moment {{date}} names, shown in `language` and `timeZone`. */
  now: Date;
  language: 'zh' | 'en';
  timeZone?: string;
}

const VARIABLE = /\{\{\s*([a-zA-Z]+(?:\.[a-zA-Z]+)?)\s*\}\}/g;

export const TEMPLATE_VARIABLES = ['recipient.name', 'recipient.email', 'sender.name', 'sender.email', 'date', 'company'] as const;

const escapeHtml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function formatTemplateDate(now: Date, language: 'zh' | 'en', timeZone?: string): string {
  const opts: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric', timeZone };
  try {
    return new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en-US', opts).format(now);
  } catch {
    // An unknown time zone name: the device's own zone rather than no date.
    return new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en-US', { ...opts, timeZone: undefined }).format(now);
  }
}

function valueOf(name: string, ctx: TemplateContext): string | null {
  switch (name.toLowerCase()) {
    // A recipient without a display name is greeted by address rather than by nothing.
    case 'recipient.name': return ctx.recipient ? (ctx.recipient.name?.trim() || ctx.recipient.email) : null;
    case 'recipient.email': return ctx.recipient?.email || null;
    case 'sender.name': return ctx.sender.name?.trim() || ctx.sender.email;
    case 'sender.email': return ctx.sender.email;
    case 'date': return formatTemplateDate(ctx.now, ctx.language, ctx.timeZone);
    case 'company': return ctx.company?.trim() || null;
    default: return null;
  }
}

/**
 * Fills the variables in. An unknown variable, or one with no value yet (no recipient
 * chosen), stays as written so the writer sees what is missing. Values are HTML-escaped
 * when `html` is true (a body); a subject is plain text and takes them as they are.
 */
export function fillTemplate(input: string, ctx: TemplateContext, html = true): string {
  return input.replace(VARIABLE, (whole, name: string) => {
    const value = valueOf(name, ctx);
    if (value === null) return whole;
    return html ? escapeHtml(value) : value;
  });
}
