import { SHARE_TABS, TOKEN_PARAM, isShareTab } from '../shared/constants';

/**
 * The legacy share link `/svc-dashboard/?svc_share_token=…#/{tab}?{params}`:
 * the tab (checked against the whitelist, else the first tab) moves into the
 * path, the hash parameters merge into the query, and the address is replaced.
 */
const route = /^#\/([^?]*)(?:\?(.*))?$/.exec(location.hash);
const wanted = route?.[1]?.split('/').filter(Boolean)[0] ?? '';
const tab = isShareTab(wanted) ? wanted : SHARE_TABS[0];
const query = new URLSearchParams(location.search);
for (const [key, value] of new URLSearchParams(route?.[2] ?? '')) if (key !== TOKEN_PARAM) query.set(key, value);
location.replace(`${location.pathname.replace(/\/*$/, '/')}${tab}/?${query.toString()}`);
