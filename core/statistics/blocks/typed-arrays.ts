type Typed = Uint8Array | Uint32Array | Int32Array | Float64Array;

/** A work array of at least `size` entries: `current` when it is large enough, else a new empty one (at least twice as long). */
export function room<T extends Typed>(current: T, size: number, make: (n: number) => T): T {
  return current.length >= size ? current : make(Math.max(size, current.length * 2));
}

/** `current` when it has an entry `at`, else a copy at least twice as long. */
export function roomFor<T extends Typed>(current: T, at: number, make: (n: number) => T): T {
  if (at < current.length) return current;
  const copy = make(Math.max(at + 1, current.length * 2));
  copy.set(current);
  return copy;
}
