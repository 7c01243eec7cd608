/** The words every refusal and hint of the grid ends with, so the page says one thing everywhere. */
export const CHOOSE_FIRST = 'choose a screen in the grid first';

export interface GridModeParts {
  /** "Screen" while one device is shown, "All screens" while the grid is. */
  title: HTMLElement;
  /** The heading's device name: while the grid is open no device is shown, so none is named. */
  deviceName: HTMLElement;
  /** Says why the controls are out of reach and what to do. */
  hint: HTMLElement;
  /** Everything that acts on the chosen device: the toolbar, Record and Launch app, the lock, the inspector's elements, Run. */
  controls: readonly HTMLElement[];
}

/**
 * While the grid of all screens is open no device is shown, yet the toolbar, Record, the lock badge,
 * the inspector's elements and Run would act on the device chosen before, unseen. They are made
 * inert meanwhile — no clicks, no focus, out of the accessibility tree, so Tab goes from the grid
 * button to the tiles — and a line says to choose a screen first. Inert keeps each control's own
 * disabled state (Record and Run set theirs) untouched. What still reaches the viewer (the Alt
 * shortcuts) asks `refusal` and is refused with the same words.
 */
export class GridMode {
  private on = false;

  constructor(private readonly parts: GridModeParts) {}

  get open(): boolean {
    return this.on;
  }

  set(on: boolean): void {
    this.on = on;
    this.parts.title.textContent = on ? 'All screens' : 'Screen';
    this.parts.deviceName.hidden = on;
    this.parts.hint.hidden = !on;
    for (const control of this.parts.controls) control.inert = on;
  }

  /** Why an action on the chosen device must not be sent now, or undefined. */
  refusal(): string | undefined {
    return this.on ? `Not sent: All screens is open, so no device is shown; ${CHOOSE_FIRST} (click its tile) or close All screens.` : undefined;
  }
}
