import { BlockList, isIP } from 'node:net';
import Bowser from 'bowser';
import type { DeviceKind } from '#shared/accounts/devices.schemas.ts';

/** 'Chrome en Windows' and the device kind, from a session's user agent. */
export function describeUserAgent(userAgent: string | null | undefined): { device: string; kind: DeviceKind } {
  if (!userAgent) return { device: 'Dispositivo desconocido', kind: 'unknown' };
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name?.replace(/^Headless\s*/i, '') || 'Navegador desconocido';
  const system = parsed.os.name || 'sistema desconocido';
  const type = parsed.platform.type;
  const kind: DeviceKind = type === 'desktop' || type === 'mobile' || type === 'tablet' ? type : 'unknown';
  return { device: `${browser} en ${system}`, kind };
}

const localNetworks = new BlockList();
localNetworks.addSubnet('127.0.0.0', 8, 'ipv4');
localNetworks.addSubnet('10.0.0.0', 8, 'ipv4');
localNetworks.addSubnet('172.16.0.0', 12, 'ipv4');
localNetworks.addSubnet('192.168.0.0', 16, 'ipv4');
localNetworks.addSubnet('169.254.0.0', 16, 'ipv4');
localNetworks.addSubnet('100.64.0.0', 10, 'ipv4');
localNetworks.addAddress('::1', 'ipv6');
localNetworks.addSubnet('fc00::', 7, 'ipv6');
localNetworks.addSubnet('fe80::', 10, 'ipv6');

/**
 * Where a session was used, as far as we know without a geo-IP service: local networks are named,
 * public addresses are shown partly masked (docs/decisions/008).
 */
export function describeIpAddress(address: string | null | undefined): { place: string; ipAddress: string | null } {
  const ip = address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '') ?? '';
  const family = isIP(ip);
  if (family === 0) return { place: 'Ubicación desconocida', ipAddress: null };
  const isLocal = localNetworks.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  const masked = family === 4 ? ip.replace(/\.\d+$/, '.x') : `${ip.split(':').slice(0, 3).join(':')}:…`;
  return { place: isLocal ? 'Red local' : 'Ubicación aproximada no disponible', ipAddress: masked };
}
