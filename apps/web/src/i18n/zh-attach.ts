import type { enAttach } from './en-attach';

// 附件预览与视频播放的文字（第 14 号问题第 5 项），随读信页和预览页加载。
export const zhAttach: typeof enAttach = {
  titleAttachPreview: '附件预览',
  titleAttachList: '附件',
  allAttachments: (n) => `全部附件（${n}）`,
  titleVideo: '视频',
  close: '关闭',
  save: '保存',
  forwardFile: '转发',
  preview: '预览',
  previewLoading: '正在打开…',
  noPreview: '无法打开附件（没有合适的应用）。请下载后用其他应用打开，或转发。',
  previewFailed: '无法打开附件（没有合适的应用）',
  tooLargeToPreview: '文件过大，无法在这里预览，请下载。',
  pageOf: (page, pages) => `第 ${page} / ${pages} 页`,
  previousPage: '上一页',
  nextPage: '下一页',
  zoomIn: '放大',
  zoomOut: '缩小',
  textCut: (shown) => `仅显示前 ${shown}。`,
  playVideo: '播放视频',
};
