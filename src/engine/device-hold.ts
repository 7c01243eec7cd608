import { KeyedQueue } from './device-queue.js';

/**
 * A verb's exclusive use of a device (issue 16): while a hold is active, calls carrying it run at
 * once (one at a time, in order) and every other caller's call waits in the device queue behind
 * it, so "tap the field, then type" is never split by another session's action.
 */
export class DeviceHold {
  active = false;
  private readonly own = new KeyedQueue();

  constructor(readonly device: string) {}

  covers(device: string): boolean {
    return this.active && device === this.device;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    return this.own.run(this.device, task);
  }
}
