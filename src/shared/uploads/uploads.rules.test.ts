import { describe, expect, it } from 'vitest';
import { displayFileName, kindByName, safeFileName, uploadFolder } from './uploads.rules.ts';

describe('upload names', () => {
  it.each([
    ['foto.png', 'foto.png'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\ana\\Guía quirúrgica.pdf', 'Guia_quirurgica.pdf'],
    ['.htaccess', 'htaccess'],
    ['   ', 'archivo'],
  ])('the client name %j becomes the safe suffix %j', (input, expected) => {
    expect(safeFileName(input)).toBe(expected);
  });

  it('knows the kind of a file by its extension among the allowed ones', () => {
    expect(kindByName('a.JPG', ['image'])).toBe('image');
    expect(kindByName('a.svg', ['image'])).toBeNull();
    expect(kindByName('a.webm', ['image', 'video'])).toBe('video');
    expect(kindByName('a.pdf', ['image'])).toBeNull();
    expect(kindByName('subtitulos.VTT', ['captions'])).toBe('captions');
    expect(kindByName('subtitulos.srt', ['captions'])).toBeNull();
  });

  it('puts procedure files in the procedure folder and landing files in landing_page', () => {
    expect(uploadFolder('procedure-demo', 'abc')).toBe('procedures/abc');
    expect(uploadFolder('procedure-captions', 'abc')).toBe('procedures/abc');
    expect(uploadFolder('landing-media')).toBe('landing_page');
  });

  it('shows the original name without the timestamp', () => {
    expect(displayFileName('events/1700000000000_programa.pdf')).toBe('programa.pdf');
  });
});
