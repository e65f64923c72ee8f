import { isPending, runSoon, type SoonSteps, soonThen } from '../../core/soon';

const later = <T>(value: T) => new Promise<T>((resolve) => setImmediate(() => resolve(value)));

function* add(a: unknown, b: unknown): SoonSteps<number> {
  const x = (yield a) as number;
  const y = (yield b) as number;
  return x + y;
}

describe('Soon values', () => {
  it('runs steps at once while nothing is pending', () => {
    expect(runSoon(add(1, 2))).toBe(3);
    expect(soonThen(4, (n) => n * 2)).toBe(8);
    expect(isPending(5)).toBe(false);
  });

  it('goes on asynchronously from the first pending value', async () => {
    const result = runSoon(add(1, later(2)));
    expect(isPending(result)).toBe(true);
    expect(await result).toBe(3);
    expect(await runSoon(add(later(1), later(2)))).toBe(3);
    expect(await soonThen(later(4), (n) => n * 2)).toBe(8);
  });

  it('throws at once before anything waited, and rejects after', async () => {
    function* failing(first: unknown): SoonSteps<number> {
      yield first;
      throw new Error('step failed');
    }
    expect(() => runSoon(failing(1))).toThrow('step failed');
    await expect(runSoon(failing(later(1)))).rejects.toThrow('step failed');
  });

  it('hands a rejection to the steps, which may catch it, and runs their finally blocks', async () => {
    const done: string[] = [];
    function* guarded(): SoonSteps<string> {
      try {
        return (yield Promise.reject(new Error('db down'))) as string;
      } catch (err) {
        return `caught ${(err as Error).message}`;
      } finally {
        done.push('finally');
      }
    }
    expect(await runSoon(guarded())).toBe('caught db down');
    expect(done).toEqual(['finally']);
  });
});
