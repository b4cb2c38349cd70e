import type { ReasonCode } from './reason-codes.js';
import { AuthMessages } from './schemas/auth.js';
import { InputMessages } from './schemas/common.js';
import { ComposeMessages } from './schemas/compose.js';
import { ContactMessages } from './schemas/contacts.js';
import { DiskMessages } from './schemas/disk.js';
import { FolderNameCharsMessage } from './schemas/mail.js';
import { NoteMessages } from './schemas/note.js';
import { SecurityMessages } from './schemas/security.js';
import { SettingMessages } from './schemas/setting.js';
import { WestMessages } from './schemas/west.js';

// A schema refusal's reason is the kind of problem (`input.too_short`), except where the
// spec names the message ("code is empty", "answer cannot be empty"): those fields get
// their own code, so the client can say exactly that in the user's language. The server
// looks its own messages up here; the client never sees or matches them.
const byMessage: Readonly<Record<string, ReasonCode>> = {
  [SecurityMessages.codeEmpty]: 'code.empty',
  [SecurityMessages.codeSixDigits]: 'code.six_digits',
  [SecurityMessages.answerEmpty]: 'answer.empty',
  [SecurityMessages.passwordMismatch]: 'password.mismatch',
  [SecurityMessages.passwordLength]: 'password.length',
  [ContactMessages.nameRequired]: 'contact.name_required',
  [ContactMessages.emailRequired]: 'contact.email_required',
  // Also the login's and compose's "is not a valid mailbox address" (the same words).
  [ContactMessages.emailInvalid]: 'input.email_invalid',
  [ContactMessages.groupNameRequired]: 'contact_group.name_required',
  [ContactMessages.patternInvalid]: 'contact_rule.pattern_invalid',
  [SettingMessages.nicknameRequired]: 'setting.nickname_required',
  [SettingMessages.avatarType]: 'avatar.type',
  [SettingMessages.avatarSize]: 'avatar.size',
  // Issue 15, scope 1: refinements that used to fall back to input.invalid.
  [ComposeMessages.noRecipient]: 'compose.no_recipient',
  [ComposeMessages.emptySubject]: 'compose.subject_empty',
  [AuthMessages.autoLoginTarget]: 'input.missing',
  [InputMessages.badFolderId]: 'input.format',
  [InputMessages.spacesOrControls]: 'input.spaces',
  [InputMessages.spaces]: 'input.spaces',
  [InputMessages.lineBreaks]: 'input.line_break',
  [SecurityMessages.recoveryFormat]: 'verify.recovery_format',
  [SettingMessages.timeZoneUnknown]: 'calendar.tz_invalid',
  [SettingMessages.pushScheme]: 'push.endpoint_invalid',
  [DiskMessages.shareDays]: 'share.days_invalid',
  [FolderNameCharsMessage]: 'folder.name_forbidden',
  [NoteMessages.iv]: 'note.bad_lock',
  [NoteMessages.salt]: 'note.bad_lock',
  [WestMessages.mobile]: 'west.mobile_invalid',
  [WestMessages.agreement]: 'west.agreement_required',
  [WestMessages.city]: 'west.city_length',
  [WestMessages.nameZh]: 'west.name_zh_invalid',
  [WestMessages.nameEn]: 'west.name_en_invalid',
};

export function schemaMessageReason(message: string | undefined): ReasonCode | undefined {
  if (message === undefined) return undefined;
  // A recipient list names the bad address first: "bob@ is not a valid mailbox address".
  if (message.endsWith(` ${ComposeMessages.badAddress}`)) return 'input.email_invalid';
  return byMessage[message];
}
