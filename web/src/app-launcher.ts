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
  private listedFor: string | undefined;
  /** True while a key press on the closed menu is being handled, including the change it fires. */
  private keyed = false;

  constructor(
    private readonly select: HTMLSelectElement,
    private readonly device: () => string | undefined,
    /** `look` lists the apps, `act` launches one: only acting is held back when the page must not act. */
    private readonly calls: { look: Call; act: Call },
  ) {
    // Listed when the user reaches for the menu, not for every device shown.
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
    this.listedFor = undefined;
    this.reset();
  }

  private reset(options: HTMLOptionElement[] = []): void {
    this.select.replaceChildren(el('option', { value: '' }, PROMPT), ...options);
    this.select.value = '';
  }

  private async list(): Promise<void> {
    const device = this.device();
    if (!device || this.listedFor === device) return;
    this.listedFor = device;
    const result = (await this.calls.look('mobile_list_apps', { device })) as { apps?: InstalledApp[] } | undefined;
    if (device !== this.device()) return;
    if (!result?.apps) {
      this.listedFor = undefined;
      return;
    }
    const apps = [...result.apps].sort((a, b) => a.name.localeCompare(b.name));
    this.reset(apps.map((a) => el('option', { value: a.package, title: a.package }, a.name || a.package)));
  }

  private async launch(): Promise<void> {
    const device = this.device();
    const packageName = this.select.value;
    this.select.value = '';
    if (!device || !packageName) return;
    await this.calls.act('mobile_launch_app', { device, packageName });
  }
}
