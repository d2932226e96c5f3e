export interface EventuallyOptions {
  /** How long to keep polling before failing (default 15 s). */
  timeoutMs?: number;
  /** Pause between two checks (default 50 ms). */
  intervalMs?: number;
}

/**
 * Polls until `check` returns a value other than undefined and resolves with it; fails with the
 * label once the timeout has passed. For state that settles asynchronously (a consumed message,
 * a scraped gauge, a cleaned-up file).
 */
export async function eventually<T>(
  label: string,
  check: () => T | undefined | Promise<T | undefined>,
  { timeoutMs = 15_000, intervalMs = 50 }: EventuallyOptions = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`gave up waiting after ${timeoutMs} ms: ${label}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
