// Pages of reading and writing mail added by issue 14, loaded as one chunk like
// mail-rules-area.ts, so they stay out of the first screen's preload map.
export { default as SettingUndoSendPage } from './modules/setting-undo-send';
export { default as SettingConversationPage } from './modules/setting-conversation';
