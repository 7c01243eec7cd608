/**
 * "You lost control of <device>": shown when this page held the device's lock and lost it without
 * releasing it — its connection dropped (the bridge frees a lock as soon as its holder's socket goes,
 * and a resumed session does not get it back), or someone took it over. Until the user chooses —
 * take control again, or go on without it — what the user does on the screen is held back (the
 * viewer asks `refusal` before each action), so nothing is sent as if the page still held the device.
 */
export class ControlNotice {
  /** `moved`: who holds the lock now (null: nobody), once it changed hands again after it was lost. */
  private lost: { device: string; why: string; moved?: { holder: string | null } } | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly text: HTMLElement,
    takeAgain: HTMLButtonElement,
    carryOn: HTMLButtonElement,
    /** Take control of the device again (devices.lock with takeover); the caller hides the notice once it holds it. */
    retake: (device: string) => void,
  ) {
    takeAgain.addEventListener('click', () => this.lost && retake(this.lost.device));
    carryOn.addEventListener('click', () => this.hide());
  }

  /** `why` ends the sentence "You lost control of <device>…" with its own separator: " when the connection dropped", ": bob took it over". */
  show(device: string, why: string): void {
    this.lost = { device, why };
    this.render();
    this.root.hidden = false;
  }

  /**
   * The lock of the device this page lost changed hands again (its new holder released it, or someone
   * else took it): the notice says where it is now, not only who took it then. Input stays held back
   * until the user chooses, as before.
   */
  lockMoved(device: string, holder: string | null): void {
    if (this.lost?.device !== device) return;
    this.lost.moved = { holder };
    this.render();
  }

  private render(): void {
    if (!this.lost) return;
    const { device, why, moved } = this.lost;
    const now = !moved ? '' : moved.holder ? ` ${moved.holder} holds it now.` : ' It is free again: press Take control again to hold it, or Continue without control.';
    this.text.textContent = `You lost control of ${device}${why}.${now}`;
    this.root.dataset.device = device;
  }

  hide(): void {
    this.lost = undefined;
    this.root.hidden = true;
  }

  /** Why an action must not be sent now, or undefined when nothing holds it back. */
  refusal(): string | undefined {
    if (!this.lost) return undefined;
    const { device, why, moved } = this.lost;
    const now = !moved ? '' : moved.holder ? `, and ${moved.holder} holds it now` : ', and it is free again';
    return `Not sent: you lost control of ${device}${why}${now}. Take control again, or choose “Continue without control” to act without holding it.`;
  }
}
