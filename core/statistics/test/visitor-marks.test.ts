import { buildDayBlock } from '../blocks/day-block';
import { VisitorMarks } from '../blocks/visitor-marks';
import { VisitorIndex } from '../blocks/visitor-index';
import { VisitorSketch } from '../sketch';

/** A day block of one pageview per visitor named. */
const dayOf = (day: number, uids: readonly string[]) =>
  buildDayBlock(1, day, { foldedAt: day, pageviews: uids.length }, uids.map((uid, i) => ({ uid, session_id: day + i, time: day + i, top: 0, pt: 'page', bounce: 0, ft: 0, goals: null })), []);

const sketchOf = (uids: readonly string[]) => {
  const sketch = new VisitorSketch();
  for (const uid of uids) sketch.add(uid);
  return sketch;
};

/** A sketch's contents regardless of the order visitors came in: its kind, then its registers or sorted hashes. */
const contents = (sketch: VisitorSketch) => {
  const buf = sketch.toBuffer();
  const hashes: string[] = [];
  for (let at = 1; at < buf.length; at += 8) hashes.push(buf.subarray(at, at + 8).toString('hex'));
  return buf[0] === 1 ? { sparse: hashes.sort() } : { dense: buf.subarray(1).toString('hex') };
};

const uids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `v${from + i}`);

describe('visitor numbering and marks', () => {
  it('numbers a visitor of several days once, and each block once', () => {
    const index = new VisitorIndex();
    const monday = dayOf(0, ['a', 'b', 'c']);
    const tuesday = dayOf(86400, ['c', 'd', 'a']);
    expect([...index.numbers(monday)]).toEqual([0, 1, 2]);
    expect([...index.numbers(tuesday)]).toEqual([2, 3, 0]);
    expect(index.numbers(tuesday)).toBe(index.numbers(tuesday));
    expect(index.size).toBe(4);
  });

  it('gives the sketches adding each visitor would give, exact and dense', () => {
    const index = new VisitorIndex();
    const days = [dayOf(0, uids(0, 700)), dayOf(86400, uids(300, 1200))];
    const numbers = days.map((d) => index.numbers(d));
    const marks = new VisitorMarks(index);
    // Group 0: a few visitors of both days (exact); group 1: every visitor (dense); group 2: none.
    for (const [d, day] of days.entries()) {
      day.sessionVisitor.forEach((v, s) => {
        const n = numbers[d]![v]!;
        if (s % 100 === 0) marks.add(0, n);
        marks.add(1, n);
      });
    }
    expect(contents(marks.sketch(0)!)).toEqual(contents(sketchOf([...uids(0, 700).filter((_, i) => i % 100 === 0), ...uids(300, 1200).filter((_, i) => i % 100 === 0)])));
    expect(marks.sketch(0)!.count()).toBe(12);
    expect(contents(marks.sketch(1)!)).toEqual(contents(sketchOf(uids(0, 1200))));
    expect(marks.sketch(2)).toBeNull();
  });

  it('counts a visitor marked twice once, so a group of 400 visitors seen on two days stays exact', () => {
    const index = new VisitorIndex();
    const days = [dayOf(0, uids(0, 400)), dayOf(86400, uids(0, 400))];
    const numbers = days.map((d) => index.numbers(d));
    const marks = new VisitorMarks(index);
    for (const day of numbers) for (const n of day) marks.add(0, n);
    expect(contents(marks.sketch(0)!)).toEqual(contents(sketchOf(uids(0, 400))));
    expect(marks.sketch(0)!.count()).toBe(400);
  });

  it('counts the groups beyond its memory budget in sketches, with the same answers', () => {
    const index = new VisitorIndex();
    const day = dayOf(0, uids(0, 600));
    const numbers = index.numbers(day);
    // Room for 768 marks: group 0's 600 outgrow it, 1 and 2 fit and 3 does not fit beside them.
    const marks = new VisitorMarks(index, 768 * 4);
    for (let g = 0; g < 4; g++) for (let v = g; v < 600; v += 1 + g) marks.add(g, numbers[v]!);
    for (let g = 0; g < 4; g++) {
      expect(contents(marks.sketch(g)!)).toEqual(contents(sketchOf(uids(0, 600).filter((_, v) => v >= g && (v - g) % (1 + g) === 0))));
    }
  });
});
