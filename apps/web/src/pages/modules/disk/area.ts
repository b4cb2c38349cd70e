export { default as DiskPage } from './index';
export { default as DiskSharePage } from './share';
