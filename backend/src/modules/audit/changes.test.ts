import { describe, expect, test } from 'bun:test';
import { changedFields, createdFields, removedFields } from './changes';

describe('the { field: { from, to } } shape', () => {
  test('changedFields keeps the given fields whose value differs; undefined is not part of the change', () => {
    expect(
      changedFields(
        { mode: 'L1', age: 25, events: ['a', 'b'], portal: null, untouched: 'x' },
        { mode: 'L2', age: 25, events: ['a', 'b'], portal: 'https://billing.example.com', untouched: undefined },
      ),
    ).toEqual({ mode: { from: 'L1', to: 'L2' }, portal: { from: null, to: 'https://billing.example.com' } });
    expect(changedFields({ events: ['a'] }, { events: ['a', 'b'] })).toEqual({ events: { from: ['a'], to: ['a', 'b'] } });
    expect(changedFields({ label: 'same' }, { label: 'same' })).toEqual({});
  });

  test('createdFields starts every field from null; removedFields ends every field at null', () => {
    expect(createdFields({ domain: 'shop.example.com', label: null, sandbox: false, skipped: undefined })).toEqual({
      domain: { from: null, to: 'shop.example.com' },
      sandbox: { from: null, to: false },
    });
    expect(removedFields({ email: 'dev@acme.test', role: 'developer', none: null })).toEqual({
      email: { from: 'dev@acme.test', to: null },
      role: { from: 'developer', to: null },
    });
  });
});
