import { failure, type ToolFailure } from '../engine/errors.js';
import type { LockInfo, LockPurpose, Participant } from '../protocol/index.js';
import type { Session } from './sessions.js';

interface Held {
  holder: Session;
  since: Date;
  /** Taken by devices.lease (a CI job's), not a plain devices.lock. */
  lease?: boolean;
}

/** The scenario a run holds a device for, as `device.lock`'s purpose names it. */
export interface RunScenario {
  scenario_id?: string;
  name?: string;
}

export interface LockChange {
  device: string;
  holder: Participant | null;
  previous?: Participant;
  since?: string;
  reason?: string;
  purpose?: LockPurpose;
  /** Sessions that must hear about it even if not subscribed to the device. */
  notify: Session[];
}

/**
 * Exclusive controllers (`devices.lock`): while a session holds a device, mutating calls from any
 * other session are refused with PERMISSION_DENIED. The runner locks a device for a scenario run;
 * a viewer can take over explicitly. A lock goes as soon as its holder disconnects (nobody is left
 * to drive the device), except one pinned by a running scenario, which lasts as long as the run.
 */
export class LockTable {
  private readonly locks = new Map<string, Held>();
  /** Per device: the session whose scenario runs keep its lock, how many of them run, and whether it held the lock before them (a lease). */
  private readonly pinned = new Map<string, { session: Session; runs: number; leased: boolean; scenario?: RunScenario }>();
  private readonly takeoverListeners = new Set<(device: string, previous: Session, by: Session) => void>();

  /**
   * `keyOf`: the one name a phone's lock is kept under, whichever of its names a caller gives
   * (`serial` and `serial@lab` of one phone are one lock); every method keys through it.
   */
  constructor(
    private readonly onChange: (change: LockChange) => void,
    private readonly keyOf: (device: string) => string = (device) => device,
  ) {}

  holder(device: string): Session | undefined {
    return this.locks.get(this.keyOf(device))?.holder;
  }

  info(given: string): LockInfo | undefined {
    const device = this.keyOf(given);
    const held = this.locks.get(device);
    if (!held) return undefined;
    const purpose = this.purposeOf(device, held);
    return { device, holder: held.holder.participant, since: held.since.toISOString(), ...(purpose ? { purpose } : {}) };
  }

  /** What the lock is for: a scenario run of its holder (which a takeover cancels), a lease, or nothing more than the lock. */
  private purposeOf(device: string, held: Held): LockPurpose | undefined {
    const pin = this.pinned.get(device);
    if (pin?.session === held.holder) return { kind: 'run', ...(pin.scenario?.scenario_id ? { scenario_id: pin.scenario.scenario_id } : {}), ...(pin.scenario?.name ? { name: pin.scenario.name } : {}) };
    return held.lease ? { kind: 'lease' } : undefined;
  }

  /** The holder is the same, what it holds the device for changed (a run started or ended): participants are told. */
  private purposeChanged(device: string): void {
    const held = this.locks.get(device);
    if (!held) return;
    const purpose = this.purposeOf(device, held);
    this.onChange({ device, holder: held.holder.participant, since: held.since.toISOString(), ...(purpose ? { purpose } : {}), notify: [held.holder] });
  }

  /** `lease`: taken by devices.lease, which `device.lock` and `activity.recent` then say. */
  acquire(given: string, session: Session, takeover: boolean, lease = false): LockInfo | ToolFailure {
    const device = this.keyOf(given);
    const held = this.locks.get(device);
    if (held?.holder === session) {
      if (lease && !held.lease) {
        held.lease = true;
        this.purposeChanged(device);
      }
      return this.info(device)!;
    }
    if (held && !takeover) {
      const { who, remedy } = this.holderOf(device, held);
      return failure('PERMISSION_DENIED', `device ${device} is locked by ${who}; ${remedy}`);
    }
    const since = new Date();
    this.locks.set(device, { holder: session, since, ...(lease ? { lease } : {}) });
    this.onChange({
      device,
      holder: session.participant,
      since: since.toISOString(),
      ...(lease ? { purpose: { kind: 'lease' } } : {}),
      ...(held ? { previous: held.holder.participant } : {}),
      notify: held ? [held.holder, session] : [session],
    });
    if (held) for (const l of this.takeoverListeners) l(device, held.holder, session);
    return this.info(device)!;
  }

  /** Told when a session takes a device over from another (a run of the previous holder stops then); `device` is the lock's key. */
  onTakeover(fn: (device: string, previous: Session, by: Session) => void): () => void {
    this.takeoverListeners.add(fn);
    return () => this.takeoverListeners.delete(fn);
  }

  release(given: string, session: Session, reason?: string): boolean {
    const device = this.keyOf(given);
    const held = this.locks.get(device);
    if (!held || held.holder !== session) return false;
    this.locks.delete(device);
    this.onChange({ device, holder: null, previous: session.participant, ...(reason ? { reason } : {}), notify: [session] });
    return true;
  }

  /**
   * A scenario run of `session` starts on `device`: its lock lasts through the end of the session
   * until the session's last run there unpins (runs still stopping). Runs are counted, so one run
   * ending does not free the device under another; `leased` (the session held the lock before the
   * run) counts for the first run only, the later ones found the lock the first one took.
   */
  pin(given: string, session: Session, leased: boolean, scenario?: RunScenario): void {
    const device = this.keyOf(given);
    const pin = this.pinned.get(device);
    if (pin?.session === session) {
      pin.runs++;
      if (scenario) pin.scenario = scenario;
    } else this.pinned.set(device, { session, runs: 1, leased, ...(scenario ? { scenario } : {}) });
    // The lock was announced when the run took it, before the run pinned it: now it is a run's.
    if (this.locks.get(device)?.holder === session) this.purposeChanged(device);
  }

  /** Whether a scenario run of `session` holds the device's lock (until its last run there ends). */
  runHolds(given: string, session: Session): boolean {
    return this.pinned.get(this.keyOf(given))?.session === session;
  }

  /** A run ended: whether it was the session's last one on the device, and whether the lock was a lease from before its runs. */
  unpin(given: string, session: Session): { last: boolean; leased: boolean } {
    const device = this.keyOf(given);
    const pin = this.pinned.get(device);
    // Taken over meanwhile (and the new holder's runs pinned it): the lock is not this session's to release.
    if (pin?.session !== session) return { last: false, leased: false };
    if (--pin.runs > 0) return { last: false, leased: pin.leased };
    this.pinned.delete(device);
    // A lease outlives its runs: the lock is said to be the lease's again (a release follows otherwise).
    if (pin.leased && this.locks.get(device)?.holder === session) this.purposeChanged(device);
    return { last: true, leased: pin.leased };
  }

  /** Every lock of the session except those a running scenario pinned (the run releases them when it stops). */
  releaseAll(session: Session, reason: string): void {
    for (const [device, held] of [...this.locks]) if (held.holder === session && this.pinned.get(device)?.session !== session) this.release(device, session, reason);
  }

  /** The refusal for a mutating call by `session` on a device someone else holds, else undefined. */
  refusal(given: string, session: Session | undefined, what: string): ToolFailure | undefined {
    const device = this.keyOf(given);
    const held = this.locks.get(device);
    if (!held || held.holder === session) return undefined;
    const { who, remedy } = this.holderOf(device, held);
    return failure('PERMISSION_DENIED', `${what} refused: device ${device} is locked by ${who}; read-only tools still work; ${remedy}`);
  }

  /**
   * The holder as a refused caller needs to know it: which session, what kind of controller (a
   * scenario run, a person in the viewer, another client), since when, and what ends the lock. The
   * kind comes from the run's pin and from the client name the session gave (the viewer says
   * "viewer"); a caller deciding whether to take over weighs a lock held for hours differently.
   */
  private holderOf(device: string, held: Held): { who: string; remedy: string } {
    const p = held.holder.participant;
    const session = p.client ? `session ${p.session} (${p.client})` : `session ${p.session}`;
    const since = `since ${held.since.toISOString()}`;
    const takeover = 'or call devices.lock with takeover: true to take control';
    const pin = this.pinned.get(device);
    if (pin?.session === held.holder) {
      // Which run: the caller can tell it from its colleague's other runs, or ask its owner to stop that one.
      const { name, scenario_id: id } = pin.scenario ?? {};
      const run = name ? ` of ${JSON.stringify(name)}${id ? ` (scenario ${id})` : ''}` : id ? ` of scenario ${id}` : '';
      return { who: `${session} for its scenario run${run}, ${since}`, remedy: `wait for the run to end (its lock goes with it), ${takeover}, which cancels the run` };
    }
    if (p.client === 'viewer') {
      return {
        who: `${session}, a person controlling it in the viewer, ${since}`,
        remedy: `wait until they press Release or close the page, ${takeover} (they are told, and can take it back)`,
      };
    }
    return {
      who: `${session}, an agent or script that locked it (devices.lock or devices.lease), ${since}`,
      remedy: `wait until it unlocks (devices.unlock) or disconnects, ${takeover} (it is told)`,
    };
  }
}
