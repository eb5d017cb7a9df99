import { describe, expect, it } from 'vitest';
import { referencedPath } from './fileReference';

describe('referencedPath', () => {
  it('reads the path after @', () => {
    expect(referencedPath('@prompts/plan.md')).toBe('prompts/plan.md');
    expect(referencedPath('  @ prompts/fix.md \n')).toBe('prompts/fix.md');
  });

  it('is null for inline text and a bare @', () => {
    expect(referencedPath('Plan the work. See @prompts/plan.md')).toBeNull();
    expect(referencedPath('@')).toBeNull();
    expect(referencedPath('')).toBeNull();
  });
});
