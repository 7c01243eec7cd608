import { parseDefaultDisplayPanel, parseDisplayIds } from './shell-output.js';

/**
 * Which physical display `screencap` captures. With one (or before Android 10, whose SurfaceFlinger
 * has no `--display-id` listing) no `-d` is needed. With several, the first one listed is not
 * necessarily the one showing: a folded phone shows its outer panel while the inner one, usually
 * listed first, is off, and screencap without -d takes "the first display found" with a warning that
 * it may change between captures (cmds/screencap/screencap.cpp). So `-d` names the panel the default
 * display is on, from the `dumpsys input` the device reads for its screen size (parseDefaultDisplayPanel).
 */
export class CaptureDisplay {
  private panels?: string[];
  private shown?: string;

  get known(): boolean {
    return this.panels !== undefined;
  }

  /** More than one physical display: each capture first reads which one the default display is on. */
  get several(): boolean {
    return (this.panels?.length ?? 0) > 1;
  }

  /** From `dumpsys SurfaceFlinger --display-id`, once per device. */
  learnPanels(out: string): void {
    this.panels = parseDisplayIds(out);
  }

  /** From a `dumpsys input`: the default display's panel now (unchanged while no panel is on, as with the screen off). */
  follow(dumpsysInput: string): void {
    this.shown = parseDefaultDisplayPanel(dumpsysInput) ?? this.shown;
  }

  /** ` -d <panel>` with several displays (the first listed until one is known to show the default display), else ''. */
  get argument(): string {
    if (!this.panels || !this.several) return '';
    return ` -d ${this.shown && this.panels.includes(this.shown) ? this.shown : this.panels[0]}`;
  }
}
