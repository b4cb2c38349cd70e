import { describe, expect, it } from 'vitest';
import { deviceLabel, deviceName } from './user-agent';

const UA = {
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.56',
  firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  wechatAndroid: 'Mozilla/5.0 (Linux; Android 13; V2148A) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/111.0 Mobile Safari/537.36 MicroMessenger/8.0.49.2600(0x28003133) NetType/WIFI Language/zh_CN',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  headlessLinux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
  harmony: 'Mozilla/5.0 (Phone; OpenHarmony 4.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0.4.300',
  opera: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0',
};

describe('device names from the user agent', () => {
  it.each([
    ['chromeAndroid', 'Chrome', 'Android'],
    ['safariIphone', 'Safari', 'iOS'],
    ['chromeIphone', 'Chrome', 'iOS'],
    ['edgeWindows', 'Edge', 'Windows'],
    ['firefoxMac', 'Firefox', 'macOS'],
    ['safariMac', 'Safari', 'macOS'],
    ['wechatAndroid', 'WeChat', 'Android'],
    ['samsung', 'Samsung Internet', 'Android'],
    ['headlessLinux', 'Chrome', 'Linux'],
    ['harmony', 'Huawei Browser', 'HarmonyOS'],
    ['opera', 'Opera', 'Windows'],
  ] as const)('%s → %s on %s', (key, browser, os) => {
    expect(deviceName(UA[key])).toEqual({ browser, os });
  });

  it('says what it knows, or the unknown word', () => {
    const on = (b: string, o: string) => `${b} on ${o}`;
    expect(deviceLabel(UA.chromeAndroid, on, '?')).toBe('Chrome on Android');
    expect(deviceLabel('curl/8.5.0', on, '?')).toBe('curl');
    expect(deviceLabel('SomethingOS Windows thing', on, '?')).toBe('Windows');
    expect(deviceLabel('', on, 'Unknown device')).toBe('Unknown device');
  });
});
