import type { ReasonCode } from './reason-codes.js';
import { ContactMessages } from './schemas/contacts.js';
import { SecurityMessages } from './schemas/security.js';
import { SettingMessages } from './schemas/setting.js';

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
  [ContactMessages.emailInvalid]: 'input.email_invalid',
  [ContactMessages.groupNameRequired]: 'contact_group.name_required',
  [ContactMessages.patternInvalid]: 'contact_rule.pattern_invalid',
  [SettingMessages.nicknameRequired]: 'setting.nickname_required',
  [SettingMessages.avatarType]: 'avatar.type',
  [SettingMessages.avatarSize]: 'avatar.size',
};

export function schemaMessageReason(message: string | undefined): ReasonCode | undefined {
  return message === undefined ? undefined : byMessage[message];
}
