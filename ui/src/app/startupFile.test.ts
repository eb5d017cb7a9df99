import { describe, expect, it } from 'vitest';
import { startupFile, urlWithFile } from './startupFile';

const launch = { initial_file: '/work/launch.dot', workspace_dir: '/work' };

describe('startupFile', () => {
  it('prefers ?file= from the URL', () => {
    expect(startupFile('?file=%2Ftmp%2Fa%20b.dot', launch)).toBe('/tmp/a b.dot');
  });

  it('falls back to the launch file, then to none', () => {
    expect(startupFile('', launch)).toBe('/work/launch.dot');
    expect(startupFile('?file=', launch)).toBe('/work/launch.dot');
    expect(startupFile('', { initial_file: null, workspace_dir: null })).toBeNull();
    expect(startupFile('', null)).toBeNull();
  });
});

describe('urlWithFile', () => {
  it('sets and clears the file parameter, keeping others', () => {
    const set = urlWithFile('http://127.0.0.1:4000/?theme=dark', '/tmp/x.dot');
    expect(new URL(set).searchParams.get('file')).toBe('/tmp/x.dot');
    expect(new URL(set).searchParams.get('theme')).toBe('dark');
    expect(new URL(urlWithFile(set, null)).searchParams.has('file')).toBe(false);
  });
});
