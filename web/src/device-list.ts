import type { DeviceInfo } from '../../src/engine/types.js';
import { el } from './dom.js';

/** The device chooser: one toggle button per device, the chosen one pressed. */
export class DeviceList {
  private devices: DeviceInfo[] = [];
  private chosen: string | undefined;

  constructor(
    private readonly list: HTMLElement,
    private readonly empty: HTMLElement,
    private readonly onChoose: (device: DeviceInfo) => void,
    private readonly notesList?: HTMLElement,
  ) {}

  /** Why a device may be missing (devices.list `notes`: a source that did not answer), under the list. */
  notes(notes: readonly string[] = []): void {
    if (!this.notesList) return;
    this.notesList.hidden = notes.length === 0;
    this.notesList.replaceChildren(...notes.map((n) => el('li', {}, n)));
  }

  get all(): readonly DeviceInfo[] {
    return this.devices;
  }

  set(devices: DeviceInfo[]): void {
    this.devices = [...devices].sort((a, b) => a.id.localeCompare(b.id));
    this.render();
  }

  change(added: DeviceInfo[], removed: string[]): void {
    const gone = new Set(removed);
    const addedIds = new Set(added.map((d) => d.id));
    this.set([...this.devices.filter((d) => !gone.has(d.id) && !addedIds.has(d.id)), ...added]);
  }

  markChosen(id: string | undefined): void {
    this.chosen = id;
    for (const button of this.list.querySelectorAll<HTMLButtonElement>('button[data-id]')) {
      button.setAttribute('aria-pressed', String(button.dataset.id === id));
    }
  }

  private render(): void {
    this.list.removeAttribute('aria-busy');
    this.empty.hidden = this.devices.length > 0;
    this.list.replaceChildren(
      ...this.devices.map((d) => {
        const usable = (d.state ?? 'ready') === 'ready';
        const button = el(
          'button',
          { type: 'button', 'data-id': d.id, 'aria-pressed': String(d.id === this.chosen), disabled: !usable, title: d.message },
          el('span', {}, d.model || d.id),
          el('span', { class: 'os' }, `${d.os} ${d.version}${usable ? '' : ` · ${d.state}`}`),
          el('span', { class: 'id' }, d.id),
        );
        button.addEventListener('click', () => this.onChoose(d));
        return el('li', {}, button);
      }),
    );
  }
}
