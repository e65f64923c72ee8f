// svc-goals.min.js: client-side goals (clicks on and views of elements), loaded
// by the tracker only when an active goal applies to the page.
import { goalApplies, pageIdentity } from './page';
import type { SvcGlobal, SvcGoal } from './types';

/** How long DOM changes settle before new elements of view goals are looked for. */
const RESCAN_MS = 500;

function start(svc: SvcGlobal): void {
  let page = '';
  let done = new Set<number>();
  /** Records a goal once per page view (a single-page navigation starts a new one); the tracker sends it with its next update. */
  const complete = (goal: SvcGoal) => {
    const here = location.href.split('#')[0]!;
    if (here !== page) {
      page = here;
      done = new Set();
    }
    if (done.has(goal.ID) || !goalApplies(goal, pageIdentity(svc).page_id)) return;
    done.add(goal.ID);
    svc.goals.completed.push(goal.ID);
    document.dispatchEvent(new Event('svc_update_hit'));
  };
  const guarded =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      try {
        fn(...args);
      } catch {
        // an invalid selector or goal URL skips the goal, never the page
      }
    };
  const goalsOf = (type: string) => svc.goals.active.filter((goal) => goal.type === type);

  document.addEventListener(
    'click',
    (event) => {
      const target = event.target;
      if (target instanceof Element) for (const goal of goalsOf('clicks')) guarded(() => target.closest(goal.selector) && complete(goal))();
    },
    true,
  );

  if (!window.IntersectionObserver) return;
  const observers = goalsOf('views').map((goal) => ({
    goal,
    seen: new WeakSet<Element>(),
    observer: new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && guarded(complete)(goal)),
  }));
  /** Watches the elements of view goals, including those a single-page application adds later. */
  const scan = () => {
    for (const { goal, seen, observer } of observers) {
      guarded(() => {
        for (const el of document.querySelectorAll(goal.selector)) {
          if (!seen.has(el)) {
            seen.add(el);
            observer.observe(el);
          }
        }
      })();
    }
  };
  let timer = 0;
  if (observers.length) {
    new MutationObserver(() => {
      clearTimeout(timer);
      timer = window.setTimeout(scan, RESCAN_MS);
    }).observe(document.body, { childList: true, subtree: true });
  }
  scan();
}

try {
  if (window.svc) start(window.svc);
} catch {
  // a goals failure never reaches the page
}
