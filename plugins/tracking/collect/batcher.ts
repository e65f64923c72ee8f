/**
 * Collects calls made while a batch is running and serves them together in
 * the next one: one query or transaction for many concurrent hits.
 */
export class Batcher<In, Out> {
  private queue: Array<{ input: In; resolve(out: Out): void; reject(err: unknown): void }> = [];
  private running = false;

  constructor(
    private readonly runBatch: (inputs: In[]) => Promise<Out[]>,
    private readonly maxBatch = 200,
  ) {}

  submit(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const outs = await this.runBatch(batch.map((b) => b.input));
          batch.forEach((b, i) => b.resolve(outs[i]!));
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
