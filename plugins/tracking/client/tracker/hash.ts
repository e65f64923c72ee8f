/** MurmurHash3's finaliser: every input bit affects every output bit. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A 128-bit non-cryptographic hash of `text` as 32 hex characters: four
 * multiplicative lanes crossed at the end (crypto.subtle is missing on plain
 * http pages, and the fingerprint needs no secrecy, only stability).
 */
export function hash128(text: string): string {
  const lanes = [0x9e3779b9, 0x243f6a88, 0xb7e15162, 0x85a308d3];
  const primes = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    for (let k = 0; k < 4; k++) lanes[k] = Math.imul(lanes[k]! ^ code, primes[k]!) + (lanes[(k + 1) & 3]! >>> 19);
  }
  return lanes.map((lane, k) => mix(lane + Math.imul(lanes[(k + 2) & 3]!, 31) + text.length).toString(16).padStart(8, '0')).join('');
}
