import type { DevicesChange, Driver } from './driver.js';
import type { DeviceInfo } from './types.js';

/** Who answers for a public device id: the driver and the id that driver knows it by. */
export type DeviceOwner = { driver: Driver; id: string } | { ambiguous: string[] };

/**
 * Which driver reports which device id, and the id each device is listed by (SPEC §10: "where two
 * sources report the same id it becomes id@name"). A driver that renames on clash (a peer bridge:
 * its ids are another host's) lists a device whose id another driver also reports as `id@name`;
 * the bridge's own devices keep their ids. Sources within one driver are its own business
 * (SourceSet renames its adb servers' clashes itself).
 */
export class DeviceIds {
  private readonly reported = new Map<Driver, Set<string>>();
  /** Renaming drivers' devices as last announced: what a device renamed by another driver's change is announced with. */
  private readonly announced = new Map<Driver, Map<string, DeviceInfo>>();

  constructor(private readonly drivers: readonly Driver[]) {}

  /** Whether any driver renames on clash; without one, every id is listed as its driver reports it. */
  get renaming(): boolean {
    return this.drivers.some((d) => d.renameOnClash);
  }

  /** A driver's whole listing, as it reported it. */
  listed(driver: Driver, ids: readonly string[]): void {
    this.reported.set(driver, new Set(ids));
  }

  /**
   * A driver's hot-plug change in its own ids; answers the change in public ids (removals as they were
   * listed). A change that starts or ends a clash renames other drivers' devices (`id` ↔ `id@peer`):
   * those are in the answer too, removed by their old id and added by their new one.
   */
  changed(driver: Driver, change: DevicesChange): DevicesChange {
    const removed = change.removed.map((id) => this.publicId(driver, id));
    const before = this.othersListed(driver);
    const own = this.reported.get(driver) ?? new Set<string>();
    for (const id of change.removed) own.delete(id);
    for (const d of change.added) own.add(d.id);
    this.reported.set(driver, own);
    if (driver.renameOnClash) {
      const infos = this.announced.get(driver) ?? new Map<string, DeviceInfo>();
      for (const id of change.removed) infos.delete(id);
      for (const d of change.added) infos.set(d.id, d);
      this.announced.set(driver, infos);
    }
    const shown = driver.renameOnClash ? { added: change.added.map((d) => ({ ...d, id: this.publicId(driver, d.id) })), removed } : change;
    const renamed: DevicesChange = { added: [], removed: [] };
    for (const { owner, id, listed } of before) {
      const now = this.publicId(owner, id);
      const info = this.announced.get(owner)?.get(id);
      if (now === listed || !info) continue;
      renamed.removed.push(listed);
      renamed.added.push({ ...info, id: now });
    }
    if (!renamed.removed.length) return shown;
    return { added: [...shown.added, ...renamed.added], removed: [...shown.removed, ...renamed.removed] };
  }

  /** Other renaming drivers' devices and the ids they are listed by now (only theirs can be renamed). */
  private othersListed(driver: Driver): { owner: Driver; id: string; listed: string }[] {
    return this.drivers
      .filter((d) => d !== driver && d.renameOnClash)
      .flatMap((owner) => [...(this.reported.get(owner) ?? [])].map((id) => ({ owner, id, listed: this.publicId(owner, id) })));
  }

  /** The id a device of `driver` is listed by. */
  publicId(driver: Driver, id: string): string {
    if (!driver.renameOnClash) return id;
    const elsewhere = this.drivers.some((d) => d !== driver && this.reported.get(d)?.has(id));
    return elsewhere ? `${id}@${driver.name}` : id;
  }

  /**
   * The driver behind a public id. `id@name` names a renaming driver outright (also before any
   * listing); a bare id reported by the bridge's own driver is that driver's; one reported only by
   * several renaming drivers is ambiguous (each listed it as `id@name`).
   */
  owner(id: string): DeviceOwner | undefined {
    const at = id.lastIndexOf('@');
    if (at > 0) {
      const named = this.drivers.find((d) => d.renameOnClash && d.name === id.slice(at + 1));
      if (named) return { driver: named, id: id.slice(0, at) };
    }
    // A driver that opens more ids than it lists (SourceSet: `serial@source`) says which listed one is meant.
    const reporters = this.drivers.flatMap((driver) => {
      const own = driver.resolveId?.(id)?.listed ?? id;
      return this.reported.get(driver)?.has(own) ? [{ driver, id: own }] : [];
    });
    const own = reporters.find((r) => !r.driver.renameOnClash);
    if (own) return own;
    if (reporters.length === 1) return reporters[0];
    if (reporters.length > 1) return { ambiguous: reporters.map((r) => `${r.id}@${r.driver.name}`) };
    return undefined;
  }

  /**
   * The id a device is listed by, from any id that names it (`serial@source` of one listed bare,
   * `id@peer`), as of the last listing; an id naming no listed device (or several) as given. What a
   * lock is kept under, so that two names of one phone are one lock.
   */
  listedId(id: string): string {
    const o = this.owner(id);
    return o && !('ambiguous' in o) ? this.publicId(o.driver, o.id) : id;
  }

  /**
   * Exact-id lookups in `devices` (the listing just made) that resolve ids as calls do, so that
   * `--device serial@lab` finds the phone listed as bare `serial`.
   */
  lookup(devices: DeviceInfo[]): DeviceLookup {
    const byId = new Map(devices.map((d) => [d.id, d]));
    const owned = (id: string) => {
      const o = this.owner(id);
      return o && !('ambiguous' in o) ? o : undefined;
    };
    return {
      devices,
      find: (id) => {
        const o = owned(id);
        return o && byId.get(this.publicId(o.driver, o.id));
      },
      key: (id) => {
        const o = owned(id);
        if (!o) return id;
        const own = o.driver.resolveId?.(o.id)?.stable ?? o.id;
        return o.driver.renameOnClash ? `${own}@${o.driver.name}` : own;
      },
    };
  }
}

/** A listing with lookups that resolve ids the way calls do (DeviceIds.lookup). */
export interface DeviceLookup {
  devices: DeviceInfo[];
  /** The listed device an id names: its listed id, `serial@source` of one listed bare, `id@peer`. */
  find(id: string): DeviceInfo | undefined;
  /**
   * One id per device, whichever id names it and whatever else is listed (`serial@source` for a
   * source's device, `id@peer` for a peer's): what locks on it are kept under. An id naming no
   * listed device is its own key.
   */
  key(id: string): string;
}
