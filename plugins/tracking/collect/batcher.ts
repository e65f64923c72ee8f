/**
 * Collects calls made while earlier batches run and serves them together:
 * one query or transaction for many concurrent hits. Up to `concurrency`
 * batches run at once (more than one lets a database overlap commits).
 */
export class Batcher<In, Out> {
  private queue: Array<{ input: In; resolve(out: Out): void; reject(err: unknown): void }> = [];
  private running = 0;
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly runBatch: (inputs: In[]) => Promise<Out[]>,
    private readonly options: { maxBatch?: number; concurrency?: number } = {},
  ) {}

  submit(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (this.running < (this.options.concurrency ?? 1)) void this.drain();
    });
  }

  /** Resolves once every submitted call has been served. */
  async drained(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return;
    await new Promise<void>((resolve) => this.idle.add(resolve));
  }

  private async drain(): Promise<void> {
    this.running++;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch ?? 200);
        try {
          const outs = await this.runBatch(batch.map((b) => b.input));
          batch.forEach((b, i) => b.resolve(outs[i]!));
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.running--;
      if (this.running === 0) for (const resolve of this.idle) resolve();
      if (this.running === 0) this.idle.clear();
    }
  }
}
