/**
 * Runs tasks one at a time per key, in arrival order; different keys run in parallel.
 * A task that times out releases its slot (the engine reports TIMEOUT and aborts it),
 * so one hung device call cannot wedge the device forever.
 */
export class KeyedQueue {
  private tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves when every task queued so far has settled. */
  async idle(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
