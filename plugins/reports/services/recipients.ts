import { domainToASCII } from 'node:url';
import { MAX_RECIPIENTS } from '../constants';
import { type FieldProblem, refuse, refused } from '../../../core';

const LOCAL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The address with its domain lowercased and in ASCII (IDN), or null when it is not an e-mail address. */
export function normalizeEmail(raw: string): string | null {
  const value = raw.trim();
  const at = value.lastIndexOf('@');
  if (at <= 0 || value.length > 254) return null;
  const local = value.slice(0, at);
  const domain = domainToASCII(value.slice(at + 1).toLowerCase());
  if (!LOCAL.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels[labels.length - 1]!)) return null;
  return `${local}@${domain}`;
}

/** A list of e-mail addresses, normalised and deduplicated (case-insensitively), at most `MAX_RECIPIENTS`; every bad address is named. */
export function parseRecipients(raw: unknown, field = 'recipients'): string[] {
  if (!Array.isArray(raw)) throw refuse(field, 'must be an array of e-mail addresses');
  const seen = new Set<string>();
  const out: string[] = [];
  const bad: FieldProblem[] = [];
  raw.forEach((item, i) => {
    const email = typeof item === 'string' ? normalizeEmail(item) : null;
    if (!email) {
      bad.push({ field: `${field}[${i}]`, problem: `${JSON.stringify(typeof item === 'string' ? item.slice(0, 80) : item)} is not a valid e-mail address` });
      return;
    }
    if (seen.has(email.toLowerCase())) return;
    seen.add(email.toLowerCase());
    out.push(email);
  });
  if (bad.length) throw refused(bad);
  if (out.length > MAX_RECIPIENTS) throw refuse(field, `may hold at most ${MAX_RECIPIENTS} addresses`);
  return out;
}
