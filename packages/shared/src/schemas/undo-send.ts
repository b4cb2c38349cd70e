import { z } from 'zod';
import { mailId } from './common.js';

// Undo send (issue 14, scope 4). A mail sent with `undo` is held on the server for the
// sender's window before anything leaves; inside it, write/undo takes it back to Drafts.
//   auth GET  setting/undo-send   → UndoSendSetting
//   auth POST setting/undo-send   UndoSendSetting → UndoSendSetting
//   auth POST write/undo          { mid } → { id } (the draft), or reason send.undo_too_late

export const UNDO_SEND_MAX_S = 30;
export const UNDO_SEND_DEFAULT_S = 5;

export const UndoSendSetting = z.object({
  seconds: z.coerce.number({ error: 'must be a number of seconds' }).int().min(0).max(UNDO_SEND_MAX_S, `at most ${UNDO_SEND_MAX_S} seconds`),
});
export type UndoSendSetting = z.infer<typeof UndoSendSetting>;

export const UndoSendInput = z.object({ mid: mailId });
export type UndoSendInput = z.infer<typeof UndoSendInput>;
