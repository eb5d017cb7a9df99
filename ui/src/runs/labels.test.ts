import { describe, expect, it } from 'vitest';
import { parseLabels } from './labels';

describe('typed labels', () => {
  it('reads key=value pairs and names a bad one', () => {
    expect(parseLabels(' team=web, ticket = 12 \n')).toEqual({ ok: true, labels: { team: 'web', ticket: '12' } });
    expect(parseLabels('')).toEqual({ ok: true, labels: {} });
    expect(parseLabels('team')).toEqual({ ok: false, error: '“team” is not key=value' });
    expect(parseLabels('=x')).toMatchObject({ ok: false });
  });
});
