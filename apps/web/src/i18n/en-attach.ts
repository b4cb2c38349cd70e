// English strings of attachment preview and video playback (issue 14, scope 5).
// They load with the read page and the preview pages only.
export const enAttach = {
  titleAttachPreview: 'Attachment preview',
  titleAttachList: 'Attachments',
  allAttachments: (n: number) => `All attachments (${n})`,
  titleVideo: 'Video',
  close: 'Close',
  save: 'Save',
  forwardFile: 'Forward',
  preview: 'Preview',
  previewLoading: 'Opening…',
  noPreview: 'Unable to open the attachment: no suitable app here. Download it to open it with another app, or forward it.',
  previewFailed: 'Unable to open attachment (no suitable app).',
  tooLargeToPreview: 'This file is too large to preview here. Download it instead.',
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  previousPage: 'Previous page',
  nextPage: 'Next page',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  textCut: (shown: string) => `Only the first ${shown} is shown.`,
  playVideo: 'Play video',
};
