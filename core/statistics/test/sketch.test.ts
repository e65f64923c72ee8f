import { VisitorSketch, prepareVisitor } from '../sketch';

const sketchOf = (from: number, to: number) => {
  const s = new VisitorSketch();
  for (let i = from; i < to; i++) s.add(`visitor-${i}`);
  return s;
};

describe('visitor sketches', () => {
  it('count exactly up to 512 visitors, ignoring repeats, across merges and storage', () => {
    const a = sketchOf(0, 300);
    a.add('visitor-1');
    expect(a.count()).toBe(300);
    const b = sketchOf(200, 500);
    const merged = VisitorSketch.from(a.toBuffer());
    merged.merge(VisitorSketch.from(b.toBuffer()));
    expect(merged.count()).toBe(500);
    expect(new VisitorSketch().count()).toBe(0);
    expect(VisitorSketch.from(null).count()).toBe(0);
  });

  it('estimates large counts within a few percent and merges dense sketches', () => {
    const big = sketchOf(0, 60_000);
    expect(Math.abs(big.count() - 60_000) / 60_000).toBeLessThan(0.05);
    const other = sketchOf(30_000, 100_000);
    const stored = VisitorSketch.from(big.toBuffer());
    stored.merge(VisitorSketch.from(other.toBuffer()));
    expect(Math.abs(stored.count() - 100_000) / 100_000).toBeLessThan(0.05);
    const mixed = sketchOf(0, 10);
    mixed.merge(big);
    expect(Math.abs(mixed.count() - 60_000) / 60_000).toBeLessThan(0.05);
  });

  it('refuses bytes that are not a sketch', () => {
    expect(() => VisitorSketch.from(Buffer.from([9, 1, 2]))).toThrow('not a visitor sketch');
    expect(() => VisitorSketch.from(Buffer.from([1, 1, 2]))).toThrow('not a visitor sketch');
  });

  it('adds a prepared visitor exactly as its id, sparse and dense', () => {
    for (const n of [200, 5000]) {
      const prepared = new VisitorSketch();
      for (let i = 0; i < n; i++) {
        const { key, register } = prepareVisitor(`visitor-${i}`);
        prepared.addPrepared(key, register);
        prepared.addPrepared(key, register);
      }
      expect(prepared.toBuffer()).toEqual(sketchOf(0, n).toBuffer());
    }
  });
});
