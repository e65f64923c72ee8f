import { buildDayBlock } from '../blocks/day-block';
import { WalkSessions } from '../blocks/walk-sessions';

const DAY = 86_400;

/** A day block of one pageview per session given as [id, when the session began (null: unknown), time of the pageview]. */
const dayOf = (day: number, sessions: ReadonlyArray<[number, number | null, number]>) =>
  buildDayBlock(
    1,
    day,
    { foldedAt: day, pageviews: sessions.length },
    sessions.map(([id, st, time]) => ({ uid: `u${id}`, session_id: id, st, time, top: 0, pt: 'page', bounce: 0, ft: 0, goals: null })),
    [],
  );

describe('day blocks and the numbering of a walk’s sessions', () => {
  it('keep when each session began: its pageview’s time when that is earlier, 0 when the session is not known', () => {
    const block = dayOf(10 * DAY, [
      [3, 9 * DAY + 5, 10 * DAY + 1],
      [7, 10 * DAY + 50, 10 * DAY + 40],
      [9, null, 10 * DAY + 2],
    ]);
    expect([...block.sessionIds]).toEqual([3, 7, 9]);
    expect([...block.sessionStart]).toEqual([9 * DAY + 5, 10 * DAY + 40, 0]);
  });

  it('refuse pageviews that do not come ordered by session id', () => {
    expect(() => dayOf(DAY, [[5, DAY, DAY + 1], [2, DAY, DAY + 2]])).toThrow('ordered by session id');
  });

  it('give a session the number it had on the last day it was seen, however many days back, and every other session a new one', () => {
    const sessions = new WalkSessions();
    expect([...sessions.ofBlock(dayOf(1 * DAY, [[1, DAY, DAY + 1], [2, DAY, DAY + 9]]))]).toEqual([0, 1]);
    // Session 2 goes on; 4 began on day 1 without a pageview there; 5 began before the walk.
    expect([...sessions.ofBlock(dayOf(2 * DAY, [[2, DAY, 2 * DAY + 1], [4, DAY + 10, 2 * DAY + 3], [5, 0, 2 * DAY + 5]]))]).toEqual([1, 2, 3]);
    // Raw hits of day 3: session 1 comes back after a day without pageviews, session 6 is new, 7 is not known.
    const raw = sessions.ofRows(3 * DAY, 4 * DAY);
    expect([raw(1, DAY, 3 * DAY + 1), raw(6, 3 * DAY + 2, 3 * DAY + 2), raw(1, DAY, 3 * DAY + 3), raw(7, null, 3 * DAY + 4)]).toEqual([0, 4, 0, 5]);
    // Day 4: sessions 6 and 2 go on from the raw hits and from a block two days back.
    expect([...sessions.ofBlock(dayOf(4 * DAY, [[2, DAY, 4 * DAY], [6, 3 * DAY + 2, 4 * DAY + 1], [8, 4 * DAY, 4 * DAY + 2]]))]).toEqual([1, 4, 6]);
  });
});
