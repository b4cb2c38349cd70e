/** A device's browser and system, read from its User-Agent, for the devices list. */
export interface DeviceName {
  /** e.g. "Chrome", "WeChat"; '' when unknown. */
  browser: string;
  /** e.g. "Android", "iOS", "Windows"; '' when unknown. */
  os: string;
}

// Order matters: many browsers also say "Chrome" and "Safari", and apps
// embedding a web view say what they are before the engine they use.
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/MicroMessenger\//, 'WeChat'],
  [/DingTalk/, 'DingTalk'],
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/UCBrowser\//, 'UC Browser'],
  [/QQBrowser\//, 'QQ Browser'],
  [/HuaweiBrowser\//, 'Huawei Browser'],
  [/MiuiBrowser\//, 'Mi Browser'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/CriOS\/|Chrome\/|Chromium\//, 'Chrome'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
  [/Mailwing\//, 'Mailwing app'],
  [/curl\//, 'curl'],
  [/node|undici|axios|python-requests|okhttp/i, 'Script'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/HarmonyOS|OpenHarmony/, 'HarmonyOS'],
  [/iPhone|iPad|iPod|\biOS\b/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux|X11/, 'Linux'],
];

function first(ua: string, list: ReadonlyArray<[RegExp, string]>): string {
  for (const [pattern, name] of list) if (pattern.test(ua)) return name;
  return '';
}

export function deviceName(userAgent: string): DeviceName {
  const ua = userAgent ?? '';
  return { browser: first(ua, BROWSERS), os: first(ua, SYSTEMS) };
}

/** "Chrome on Android", "Safari", "Windows", or `unknown` when nothing is known. */
export function deviceLabel(userAgent: string, on: (browser: string, os: string) => string, unknown: string): string {
  const { browser, os } = deviceName(userAgent);
  if (browser && os) return on(browser, os);
  return browser || os || unknown;
}
