/** The one source of "now" for domain code, so tests can move time. */
export interface Clock {
  now(): Date;
  /** Current unix time in whole seconds. */
  unix(): number;
  /** Current time in milliseconds since the epoch. */
  ms(): number;
}

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
  unix(): number {
    return Math.floor(Date.now() / 1000);
  }
  ms(): number {
    return Date.now();
  }
}

/** A clock that stands still until told otherwise. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string | number = Date.now()) {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  unix(): number {
    return Math.floor(this.current / 1000);
  }
  ms(): number {
    return this.current;
  }
  set(to: Date | string | number): void {
    this.current = new Date(to).getTime();
  }
  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
}
