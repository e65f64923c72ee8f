import { createHmac, timingSafeEqual } from 'node:crypto';

/** `X-WC-Webhook-Signature`: base64 of the HMAC-SHA256 of the raw body with the webhook secret. */
export function signatureOf(body: Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

export function verifySignature(body: Buffer, header: string | undefined, secret: string): boolean {
  if (!header || !secret) return false;
  const expected = Buffer.from(signatureOf(body, secret));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
