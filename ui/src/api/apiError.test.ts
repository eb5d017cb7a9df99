import { describe, expect, it } from 'vitest';
import { isApiError, toApiError } from './apiError';

describe('isApiError', () => {
  it('accepts the backend error shape', () => {
    expect(isApiError({ code: 'not_found', message: 'no such file: /x.dot' })).toBe(true);
  });

  it('rejects unknown codes, missing fields and non-objects', () => {
    expect(isApiError({ code: 'teapot', message: 'x' })).toBe(false);
    expect(isApiError({ code: 'io' })).toBe(false);
    expect(isApiError('io')).toBe(false);
    expect(isApiError(null)).toBe(false);
  });
});

describe('toApiError', () => {
  it('passes ApiErrors through unchanged', () => {
    const error = { code: 'wrong_kind' as const, message: 'not a .dot file' };
    expect(toApiError(error)).toBe(error);
  });

  it('turns transport failures into io errors', () => {
    expect(toApiError(new TypeError('Failed to fetch'))).toEqual({
      code: 'io',
      message: 'Failed to fetch',
    });
    expect(toApiError(42).code).toBe('io');
  });
});
