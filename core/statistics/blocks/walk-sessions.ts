import type { DayBlock } from './day-block';

/** A part of a walk already numbered: its time span and the number it gave a session id (-1 when the session was not in it). */
interface Numbered {
  start: number;
  end: number;
  find(id: number): number;
}

/** Where `id` is in ascending `ids`, or -1. */
function search(ids: Float64Array, id: number): number {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = ids[mid]!;
    if (at === id) return mid;
    if (at < id) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * Numbers the sessions of a walk 0, 1, 2… as they first come, so a plugin can
 * keep what it follows per session in an array. A session that goes on from
 * an earlier day (it began before the part being walked) keeps the number it
 * had there, found by searching the parts walked since it began; every other
 * session is new, so no session is looked up more than once a day.
 */
export class WalkSessions {
  private count = 0;
  private readonly numbered: Numbered[] = [];

  /** The walk's number of each of the block's sessions. */
  ofBlock(block: DayBlock): Uint32Array {
    const { sessionIds, sessionStart, day } = block;
    const numbers = new Uint32Array(sessionIds.length);
    for (let s = 0; s < numbers.length; s++) numbers[s] = sessionStart[s]! < day ? this.earlier(sessionIds[s]!, sessionStart[s]!) : this.count++;
    this.numbered.push({
      start: day,
      // No session of the block began after its last pageview.
      end: block.lastTime + 1,
      find: (id) => {
        const s = search(sessionIds, id);
        return s < 0 ? -1 : numbers[s]!;
      },
    });
    return numbers;
  }

  /**
   * Numbers sessions of raw pageviews of [start, end), given each pageview's
   * session id and when its session began (null when the session is not known).
   */
  ofRows(start: number, end: number): (id: number, began: number | null, time: number) => number {
    const numbers = new Map<number, number>();
    this.numbered.push({ start, end, find: (id) => numbers.get(id) ?? -1 });
    return (id, began, time) => {
      let n = numbers.get(id);
      if (n === undefined) {
        const since = began === null ? 0 : Math.min(began, time);
        numbers.set(id, (n = since < start ? this.earlier(id, since) : this.count++));
      }
      return n;
    };
  }

  /** The number a session that began at `began` had in a part walked before, or a new one. */
  private earlier(id: number, began: number): number {
    for (let p = this.numbered.length - 1; p >= 0; p--) {
      const part = this.numbered[p]!;
      if (part.end <= began) break;
      const n = part.find(id);
      if (n >= 0) return n;
    }
    return this.count++;
  }
}
