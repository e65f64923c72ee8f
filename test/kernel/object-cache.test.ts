import { ObjectCache } from '../../core/cache/object-cache';

describe('ObjectCache', () => {
  it('keeps groups apart and flushes one group without touching the others', () => {
    const cache = new ObjectCache();
    cache.set('svc_browsers_all', { Firefox: 1 }, 'svc');
    cache.set('svc_browsers_all', 'other', 'reports');
    cache.set('k', 1);
    expect(cache.get('svc_browsers_all', 'svc')).toEqual({ Firefox: 1 });
    expect(cache.get('svc_browsers_all', 'reports')).toBe('other');
    expect(cache.get('k')).toBe(1);
    expect(cache.get('k', 'svc')).toBeUndefined();
    cache.flushGroup('svc');
    expect(cache.has('svc_browsers_all', 'svc')).toBe(false);
    expect(cache.get('svc_browsers_all', 'reports')).toBe('other');
    cache.flush();
    expect(cache.get('k')).toBeUndefined();
  });

  it('stores falsy values as values, not as misses', async () => {
    const cache = new ObjectCache();
    cache.set('zero', 0, 'svc');
    cache.set('null', null, 'svc');
    expect(cache.has('zero', 'svc')).toBe(true);
    expect(cache.get('zero', 'svc')).toBe(0);
    let computed = 0;
    await cache.remember('null', 'svc', async () => ++computed);
    expect(computed).toBe(0);
  });

  it('bounds each group, dropping the least recently used entries', () => {
    const cache = new ObjectCache({ maxPerGroup: 3 });
    for (const k of ['a', 'b', 'c']) cache.set(k, k, 'g');
    cache.get('a', 'g');
    cache.set('d', 'd', 'g');
    expect(cache.has('b', 'g')).toBe(false);
    expect(['a', 'c', 'd'].every((k) => cache.has(k, 'g'))).toBe(true);
    for (let i = 0; i < 10; i++) cache.set(`x${i}`, i, 'other');
    expect(['a', 'c', 'd'].every((k) => cache.has(k, 'g'))).toBe(true);
  });

  it('computes a remembered value once and deletes single keys', async () => {
    const cache = new ObjectCache();
    const compute = jest.fn(async () => 42);
    expect(await cache.remember('answer', 'svc', compute)).toBe(42);
    expect(await cache.remember('answer', 'svc', compute)).toBe(42);
    expect(compute).toHaveBeenCalledTimes(1);
    cache.delete('answer', 'svc');
    expect(await cache.remember('answer', 'svc', compute)).toBe(42);
    expect(compute).toHaveBeenCalledTimes(2);
  });
});
