import type { UiElement } from '../../engine/types.js';

interface Known {
  elements: UiElement[];
  /** Order stamps: a listing says what a tap hit only if no other action came after it. */
  listed: number;
  mutated: number;
  /** The text field typing goes into, as far as the bridge can tell. */
  focus?: UiElement;
}

/**
 * What the bridge last saw on each device's screen, from any element listing (the element
 * watcher, an agent's mobile_list_elements_on_screen): enough to name the element a tap landed
 * on and the field typed text went into. Calls on one device run one at a time, so the order in
 * which listings and actions are reported is the order in which they happened.
 */
export class ScreenMemory {
  private stamp = 0;
  private readonly devices = new Map<string, Known>();

  saw(device: string, elements: UiElement[]): void {
    const known = this.devices.get(device);
    const focused = elements.find((e) => e.focused && e.type === 'edittext');
    // A platform that does not report focus keeps the field last tapped while it is still there.
    const kept = focused ?? (known?.focus && elements.find((e) => e.id === known.focus!.id));
    this.devices.set(device, { elements, listed: ++this.stamp, mutated: known?.mutated ?? 0, ...(kept ? { focus: kept } : {}) });
  }

  /** The screen as it was just before the action now being reported, if a listing shows it. */
  beforeAction(device: string): UiElement[] | undefined {
    const known = this.devices.get(device);
    return known && known.listed > known.mutated ? known.elements : undefined;
  }

  /** An action on the device finished (after the caller looked at beforeAction). */
  acted(device: string): void {
    const known = this.devices.get(device);
    if (known) known.mutated = ++this.stamp;
  }

  /**
   * A touch landed on this element: a text field takes the focus. Landed somewhere unknown (no
   * up-to-date listing, a streamed touch): the focus is unknown until the next listing, so typing
   * into what may now be a password field is masked rather than shown.
   */
  touched(device: string, element: UiElement | undefined): void {
    const known = this.devices.get(device);
    if (!known) return;
    if (!element) delete known.focus;
    else if (element.type === 'edittext') known.focus = element;
  }

  /** Whether anything was ever listed, the focused field, and whether a password field is on screen at all. */
  typingTarget(device: string): { known: false } | { known: true; field?: UiElement; passwordOnScreen: boolean } {
    const known = this.devices.get(device);
    if (!known) return { known: false };
    return { known: true, ...(known.focus ? { field: known.focus } : {}), passwordOnScreen: known.elements.some((e) => e.password === true) };
  }

  /** The element of that id in the latest listing of the device. */
  element(device: string, id: string): UiElement | undefined {
    return this.devices.get(device)?.elements.find((e) => e.id === id);
  }

  forget(device: string): void {
    this.devices.delete(device);
  }
}
