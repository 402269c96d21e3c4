import { describe, expect, it } from 'vitest';
import { buildChaptersVtt } from './chapters-vtt.ts';

describe('buildChaptersVtt', () => {
  it('makes one cue per chapter ending where the next begins and the last at the end of the video', () => {
    const vtt = buildChaptersVtt(
      [
        { name: 'Cierre', timeSeconds: 25 },
        { name: 'Preparación', timeSeconds: 0 },
        { name: 'Abordaje', timeSeconds: 3725 },
      ],
      4000,
    );
    expect(vtt).toBe(
      'WEBVTT\n\n' +
        '1\n00:00:00.000 --> 00:00:25.000\nPreparación\n\n' +
        '2\n00:00:25.000 --> 01:02:05.000\nCierre\n\n' +
        '3\n01:02:05.000 --> 01:06:40.000\nAbordaje\n',
    );
  });

  it('escapes markup and never makes an empty cue', () => {
    const vtt = buildChaptersVtt([{ name: 'Sutura <b> & cierre\n final', timeSeconds: 30 }], 30);
    expect(vtt).toContain('00:00:30.000 --> 00:00:31.000\nSutura &lt;b&gt; &amp; cierre final');
  });

  it('is a bare header without chapters', () => {
    expect(buildChaptersVtt([], 10)).toBe('WEBVTT\n');
  });
});
