import { useLanguage, type Language } from './index';

// Strings of the location pages (issue 15 §6); they load with those pages only.
const en = {
  chooseTitle: 'Choose location',
  openTitle: 'Location',
  searchPlaceholder: 'Search a place or enter coordinates',
  coordinatesPlaceholder: 'Enter coordinates, e.g. 31.2304, 121.4737',
  search: 'Search',
  myLocation: 'My location',
  locating: 'Finding your position…',
  locateDenied: 'Location access was denied. Allow it in the browser, or search instead.',
  locateFailed: 'Your position could not be found. Search or tap the map instead.',
  tapHint: 'Tap the map to move the pin.',
  noResults: 'No place found. Try other words or coordinates.',
  placeName: 'Name',
  placeNamePlaceholder: 'Name of the place (optional)',
  insert: 'Insert into mail',
  share: 'Show this place',
  nothingPicked: 'Pick a place first: search, tap the map or use your position.',
  inserting: 'Adding the map…',
  inserted: 'Location added to the mail',
  linkWord: 'Location',
  mapCredit: (who: string) => `Map: ${who}`,
  badLink: 'This location link is incomplete or damaged.',
  coordinates: 'Coordinates',
  copy: 'Copy coordinates',
  copied: 'Copied',
  openInApp: 'Open in a map app',
  unnamed: 'Picked place',
};

const zh: typeof en = {
  chooseTitle: '选择位置',
  openTitle: '位置',
  searchPlaceholder: '搜索地点或输入经纬度',
  coordinatesPlaceholder: '输入经纬度，例如 31.2304, 121.4737',
  search: '搜索',
  myLocation: '我的位置',
  locating: '正在获取当前位置…',
  locateDenied: '定位权限被拒绝。请在浏览器中允许定位，或改用搜索。',
  locateFailed: '无法获取当前位置，请搜索或点按地图选择。',
  tapHint: '点按地图可移动标记。',
  noResults: '没有找到地点，请换个关键词或输入经纬度。',
  placeName: '名称',
  placeNamePlaceholder: '地点名称（可不填）',
  insert: '插入邮件',
  share: '查看此位置',
  nothingPicked: '请先选择位置：搜索、点按地图或使用当前位置。',
  inserting: '正在添加地图…',
  inserted: '位置已添加到邮件',
  linkWord: '位置',
  mapCredit: (who: string) => `地图：${who}`,
  badLink: '该位置链接不完整或已损坏。',
  coordinates: '经纬度',
  copy: '复制经纬度',
  copied: '已复制',
  openInApp: '在地图应用中打开',
  unnamed: '选定位置',
};

export type LocationMessages = typeof en;
const catalogues: Record<Language, LocationMessages> = { en, zh };

export function useLocationT(): LocationMessages {
  return catalogues[useLanguage()];
}
