// svc.min.js: the tracker for the cookie and private (cookieless) modes.
import { runTracker } from './tracker';

runTracker();
