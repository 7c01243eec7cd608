import type { InstalledApp } from '../../src/engine/types.js';
import { el } from './dom.js';

const PROMPT = 'Launch app…';

type Call = (tool: string, parameters: Record<string, unknown>) => Promise<unknown>;

/**
 * A menu of the device's launchable apps (mobile_list_apps); choosing one launches it
 * (mobile_launch_app), so a recording can start with launch_app like a scenario does.
 *
 * Choosing means confirming: a click on an app in the open menu, or Enter. Chromium also fires
 * `change` for the arrow keys (and type-ahead) on a closed menu; launching on those launched the
 * first app at the first ↓, and again at the next, since the menu then went back to its prompt,
 * so keyboard users could reach no other app. A change caused by such a key only moves the choice.
 */
export class AppLauncher {
  /** The listing on its way, and for which device: the focus and the click that open the menu ask once. */
  private listing: { device: string; done: Promise<void> } | undefined;
  /** True while a key press on the closed menu is being handled, including the change it fires. */
  private keyed = false;

  constructor(
    private readonly select: HTMLSelectElement,
    private readonly device: () => string | undefined,
    /** `look` lists the apps, `act` launches one: only acting is held back when the page must not act. */
    private readonly calls: { look: Call; act: Call },
  ) {
    // Listed each time the user reaches for the menu, not for every device shown: apps come and go
    // (an install from the command line, an agent's mobile_install_app) while the device stays shown.
    for (const event of ['focus', 'pointerdown'] as const) select.addEventListener(event, () => void this.list());
    select.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        void this.launch();
        return;
      }
      // The change a key causes is fired while the key is handled, before the next task.
      this.keyed = true;
      setTimeout(() => (this.keyed = false));
    });
    select.addEventListener('change', () => {
      if (!this.keyed) void this.launch();
    });
    this.reset();
  }

  /** The watched device changed: its app list is another one. */
  deviceChanged(): void {
    this.listing = undefined;
    this.reset();
  }

  private reset(options: HTMLOptionElement[] = []): void {
    this.select.replaceChildren(el('option', { value: '' }, PROMPT), ...options);
    this.select.value = '';
  }

  /** The menu keeps the list it has while a fresh one comes, so it opens at once. */
  private list(): Promise<void> {
    const device = this.device();
    if (!device) return Promise.resolve();
    if (this.listing?.device !== device) {
      const done = this.refresh(device).finally(() => {
        if (this.listing?.done === done) this.listing = undefined;
      });
      this.listing = { device, done };
    }
    return this.listing.done;
  }

  private async refresh(device: string): Promise<void> {
    const result = (await this.calls.look('mobile_list_apps', { device })) as { apps?: InstalledApp[] } | undefined;
    // Another device meanwhile, or no answer (shown by the viewer): the menu keeps what it has.
    if (device !== this.device() || !result?.apps) return;
    const apps = [...result.apps].sort((a, b) => a.name.localeCompare(b.name));
    const options = apps.map((a) => el('option', { value: a.package, title: a.package }, a.name || a.package));
    // Left alone when nothing changed, so a menu open on the screen does not flicker or lose its place.
    if (sameOptions(this.select, options)) return;
    const chosen = this.select.value;
    this.reset(options);
    if (options.some((o) => o.value === chosen)) this.select.value = chosen;
  }

  private async launch(): Promise<void> {
    const device = this.device();
    const packageName = this.select.value;
    this.select.value = '';
    if (!device || !packageName) return;
    await this.calls.act('mobile_launch_app', { device, packageName });
  }
}

function sameOptions(select: HTMLSelectElement, options: readonly HTMLOptionElement[]): boolean {
  const shown = [...select.options].slice(1);
  return shown.length === options.length && shown.every((o, i) => o.value === options[i].value && o.text === options[i].text);
}
