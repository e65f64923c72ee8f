/** Unix seconds of an ISO date-time (UTC unless it names a zone). */
export const at = (iso: string): number => Math.floor(Date.parse(/Z|[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`) / 1000);
