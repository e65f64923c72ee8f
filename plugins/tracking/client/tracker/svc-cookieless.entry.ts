// svc-cookieless.min.js: the tracker for the fingerprint mode (no cookie).
import { fingerprint } from './fingerprint';
import { runTracker } from './tracker';

// Without a fingerprint the hits still go out; the server then counts the visitor by its private-mode hash.
runTracker((svc) =>
  fingerprint().then(
    (id) => void (svc.cache.fingerprint = id),
    () => undefined,
  ),
);
