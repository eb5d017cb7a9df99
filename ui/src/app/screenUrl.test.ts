import { describe, expect, it } from 'vitest';
import { screenFromSearch, urlWithScreen } from './screenUrl';

describe('screen in the URL', () => {
  it('reads the run, the runs list or the editor', () => {
    expect(screenFromSearch('?run=01ABC&file=/a.dot')).toEqual({ kind: 'run', runId: '01ABC' });
    expect(screenFromSearch('?runs')).toEqual({ kind: 'runs' });
    expect(screenFromSearch('?file=/a.dot')).toEqual({ kind: 'editor' });
    expect(screenFromSearch('?run=')).toEqual({ kind: 'editor' });
  });

  it('writes it back, keeping the other parameters', () => {
    const base = 'http://127.0.0.1:7000/?file=%2Fw%2Fa.dot&token=x';
    expect(urlWithScreen(base, { kind: 'run', runId: 'R1' })).toBe('http://127.0.0.1:7000/?file=%2Fw%2Fa.dot&token=x&run=R1');
    expect(urlWithScreen(`${base}&run=R1`, { kind: 'runs' })).toBe('http://127.0.0.1:7000/?file=%2Fw%2Fa.dot&token=x&runs');
    expect(urlWithScreen(`${base}&runs`, { kind: 'editor' })).toBe(base);
  });
});
