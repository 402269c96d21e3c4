import { describe, expect, it } from 'vitest';
import { describeIpAddress, describeUserAgent } from './device-labels.ts';

describe('device labels', () => {
  it.each([
    ['127.0.0.1', 'Red local', '127.0.0.x'],
    ['::ffff:10.1.2.3', 'Red local', '10.1.2.x'],
    ['172.20.0.5', 'Red local', '172.20.0.x'],
    ['::1', 'Red local', '::1:…'],
    ['fd12:3456:789a::1', 'Red local', 'fd12:3456:789a:…'],
    ['8.8.8.8', 'Ubicación aproximada no disponible', '8.8.8.x'],
    ['2001:db8:85a3::8a2e:370:7334', 'Ubicación aproximada no disponible', '2001:db8:85a3:…'],
    ['', 'Ubicación desconocida', null],
    ['no es una ip', 'Ubicación desconocida', null],
  ])('the address %j is shown as %j, masked to %j', (address, place, ipAddress) => {
    expect(describeIpAddress(address)).toEqual({ place, ipAddress });
  });

  it.each([
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari en macOS',
      'desktop',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
      'Chrome en Android',
      'mobile',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0.0.0 Safari/537.36',
      'Chrome en Linux',
      'desktop',
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari en iOS',
      'tablet',
    ],
    [null, 'Dispositivo desconocido', 'unknown'],
  ])('the user agent %j reads %j (%s)', (userAgent, device, kind) => {
    expect(describeUserAgent(userAgent)).toEqual({ device, kind });
  });
});
