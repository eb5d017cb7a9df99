import { describe, expect, it } from 'vitest';
import { addressWithoutCredentials } from './launchUrl';

describe('addressWithoutCredentials', () => {
  it('drops the launch token and an old access token, keeping the rest', () => {
    expect(addressWithoutCredentials('http://127.0.0.1:7000/?launch=abc&file=%2Fw%2Fa.dot&run=R1')).toBe(
      'http://127.0.0.1:7000/?file=%2Fw%2Fa.dot&run=R1',
    );
    expect(addressWithoutCredentials('http://127.0.0.1:7000/?file=a.dot&token=x')).toBe(
      'http://127.0.0.1:7000/?file=a.dot',
    );
    expect(addressWithoutCredentials('http://127.0.0.1:7000/?launch=abc')).toBe('http://127.0.0.1:7000/');
  });

  it('leaves an address without credentials alone', () => {
    expect(addressWithoutCredentials('http://127.0.0.1:7000/?file=a.dot&launched=1')).toBeNull();
    expect(addressWithoutCredentials('tauri://localhost/')).toBeNull();
  });
});
