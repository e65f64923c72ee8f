/** A parsed JSON answer; tests assert its fields one by one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
