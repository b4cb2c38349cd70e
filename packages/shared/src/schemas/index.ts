export * from './common.js';
export * from './auth.js';
export * from './mail.js';
export * from './compose.js';
export * from './admin.js';
export * from './organise.js';
export * from './contacts.js';
export * from './directory.js';
