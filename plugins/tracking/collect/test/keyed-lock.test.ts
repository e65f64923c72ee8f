import { isPending } from '../../../../core';
import { KeyedLock } from '../keyed-lock';

describe('KeyedLock', () => {
  it('takes a free key at once, and hands a held one to its waiters in order', async () => {
    const lock = new KeyedLock();
    const first = lock.acquire('visitor');
    expect(isPending(first)).toBe(false);
    const order: string[] = [];
    const second = lock.acquire('visitor');
    const third = lock.acquire('visitor');
    expect(isPending(second)).toBe(true);
    void (second as Promise<() => void>).then((release) => {
      order.push('second');
      release();
    });
    void (third as Promise<() => void>).then((release) => {
      order.push('third');
      release();
    });
    const other = lock.acquire('another visitor');
    expect(isPending(other)).toBe(false);
    (other as () => void)();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    (first as () => void)();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['second', 'third']);
    expect(isPending(lock.acquire('visitor'))).toBe(false);
  });
});
