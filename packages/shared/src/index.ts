export * from './constants.js';
export * from './codes.js';
export * from './validators.js';
export * from './format.js';
export * from './schemas/index.js';
export * from './search.js';
export * from './reasons.js';
export * from './note-crypto.js';
