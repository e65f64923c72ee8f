import type { SvcTrackingOptions } from '../../../../hooks';

/** A client-side goal of `svc.goals.active` (clicks on, or views of, elements matching `selector`). */
export interface SvcGoal {
  ID: number;
  type: string;
  selector: string;
  url: string;
  page_id: number;
}

/** The `svc` global of tracking.md §2.6, written by the embed snippet before the tracker runs. */
export type SvcGlobal = Pick<SvcTrackingOptions, 'tracking' | 'options' | 'cache' | 'site'> & {
  goals: Omit<SvcTrackingOptions['goals'], 'active'> & { active: SvcGoal[] };
};

declare global {
  interface Window {
    svc?: SvcGlobal;
    /** `{api_base}`, written by the embed snippet beside `svc`. */
    svc_rest_url?: string;
    /** Set by the page before the snippet: `hold` (send nothing until consent) or `cookieless` (no cookie until consent). */
    svc_consent?: string;
  }
  interface Navigator {
    globalPrivacyControl?: boolean;
  }
}
