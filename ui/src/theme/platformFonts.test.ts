import { describe, expect, it } from 'vitest';
import { fontFamiliesFor } from './platformFonts';

describe('fontFamiliesFor', () => {
  it('uses the generic families on Linux, in the desktop app and in a browser', () => {
    const webKitGtk = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';
    const chromium = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
    const firefox = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
    for (const agent of [webKitGtk, chromium, firefox]) expect(fontFamiliesFor(agent)).toBe('fontconfig');
  });

  it('names the system fonts on macOS, Windows and Android', () => {
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)';
    const windows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 Edg/140.0.0.0';
    const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36';
    for (const agent of [mac, windows, android]) expect(fontFamiliesFor(agent)).toBe('named');
  });
});
