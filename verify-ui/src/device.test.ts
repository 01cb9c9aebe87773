import { describe, expect, test } from 'bun:test';
import { isMobileDevice, type DeviceHints } from './device';

const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

describe('isMobileDevice', () => {
  const cases: Array<[string, DeviceHints, boolean]> = [
    ['Android phone', { userAgent: PIXEL, maxTouchPoints: 5, clientHintsMobile: undefined }, true],
    ['iPhone', { userAgent: IPHONE, maxTouchPoints: 5, clientHintsMobile: undefined }, true],
    ['iPad in desktop mode (a touch Mac)', { userAgent: MAC, maxTouchPoints: 5, clientHintsMobile: undefined }, true],
    ['Mac', { userAgent: MAC, maxTouchPoints: 0, clientHintsMobile: undefined }, false],
    ['Linux desktop Chromium', { userAgent: LINUX, maxTouchPoints: 0, clientHintsMobile: false }, false],
    ['Linux laptop with a touch screen', { userAgent: LINUX, maxTouchPoints: 10, clientHintsMobile: false }, false],
    ['Client Hints say mobile', { userAgent: LINUX, maxTouchPoints: 0, clientHintsMobile: true }, true],
  ];
  for (const [name, hints, expected] of cases) test(name, () => expect(isMobileDevice(hints)).toBe(expected));
});
