import { describe, expect, it } from 'vitest';
import { mediaRetryLimit, nextRecoveryStep, readMediaProbe, withReloadParam } from './media-recovery.ts';

describe('readMediaProbe', () => {
  it.each([
    [{ type: 'opaqueredirect', status: 0 }, undefined, 'ok'],
    [{ type: 'basic', status: 206 }, undefined, 'ok'],
    [{ type: 'basic', status: 409 }, 'VIEWING_TOKEN_REPLACED', 'replaced'],
    [{ type: 'basic', status: 401 }, 'UNAUTHENTICATED', 'refused'],
    [{ type: 'basic', status: 403 }, 'FORBIDDEN', 'refused'],
    [{ type: 'basic', status: 404 }, 'NOT_FOUND', 'refused'],
    [{ type: 'basic', status: 503 }, 'SERVICE_UNAVAILABLE', 'unreachable'],
    [{ type: 'error', status: 0 }, undefined, 'unreachable'],
  ] as const)('%o with code %s is %s', (response, code, expected) => {
    expect(readMediaProbe(response, code)).toBe(expected);
  });
});

describe('nextRecoveryStep', () => {
  it('reloads up to the limit, then gives up', () => {
    for (let failures = 1; failures <= mediaRetryLimit; failures++)
      expect(nextRecoveryStep(failures, 'ok')).toBe('reload');
    expect(nextRecoveryStep(mediaRetryLimit + 1, 'ok')).toBe('give-up');
    expect(nextRecoveryStep(2, 'unreachable')).toBe('reload');
  });

  it('lets the single-device rule win over any retry, and stops at once when the file is refused', () => {
    expect(nextRecoveryStep(1, 'replaced')).toBe('replaced');
    expect(nextRecoveryStep(mediaRetryLimit + 1, 'replaced')).toBe('replaced');
    expect(nextRecoveryStep(1, 'refused')).toBe('give-up');
  });
});

describe('withReloadParam', () => {
  it('adds a parameter of its own beside the viewing token, or none before the first reload', () => {
    expect(withReloadParam('/media/a.mp4?vt=x', null)).toBe('/media/a.mp4?vt=x');
    expect(withReloadParam('/media/a.mp4?vt=x', 'k1')).toBe('/media/a.mp4?vt=x&reload=k1');
    expect(withReloadParam('/media/a.mp4', 'k 2')).toBe('/media/a.mp4?reload=k%202');
  });
});
