// Attachment preview and video playback (issue 14, scope 5) load as one chunk; pdf.js
// is a chunk of its own that only the preview of a PDF asks for.
export { default as AttachIndexPage } from './index';
export { default as AttachPreviewPage } from './preview';
export { default as VideoPage } from '../modules/video/index';
