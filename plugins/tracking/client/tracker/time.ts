/** Without a pointer, key or scroll event for this long the visitor counts as away. */
const IDLE_MS = 30_000;

let seconds = 0;
let lastActive = Date.now();

/** The visitor is here (an input event, or the page became visible again). */
export const markActive = (): void => {
  lastActive = Date.now();
};

/**
 * Counts the seconds the page is visible and the visitor active: a tick a
 * second (browsers slow timers of hidden pages, which are not counted anyway).
 */
export function startClock(): void {
  for (const type of ['pointermove', 'keydown', 'scroll']) document.addEventListener(type, markActive, true);
  setInterval(() => {
    if (!document.hidden && Date.now() - lastActive < IDLE_MS) seconds++;
  }, 1000);
}

/** Whole seconds counted since the last call. */
export function takeSeconds(): number {
  const taken = seconds;
  seconds = 0;
  return taken;
}
