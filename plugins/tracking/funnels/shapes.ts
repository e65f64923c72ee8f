/** A step: the pageviews of pages matching `page` (`*` any run of characters), or the completions of goal `goal`. */
export type FunnelStep = { page: string } | { goal: number };

/** One step's figures, as `GET {api_base}/data/funnel` answers them (the server's and the page's shape). */
export interface FunnelStepFigures {
  step: number;
  label: string;
  visitors: number;
  /** Share of the first step's visitors, in percent. */
  conversion_rate: number;
  /** Visitors of the previous step who did not reach this one (0 on the first step). */
  drop_off: number;
  /** `drop_off` as a share of the previous step's visitors, in percent. */
  drop_off_rate: number;
}
