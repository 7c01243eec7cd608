import * as v from 'valibot';
import { deviceNotFoundMessage, failure, isToolFailure, type ToolFailure } from '../../engine/errors.js';
import { LEASE_ASK_HOLDER, LEASE_WAIT_LONGER } from '../../engine/leases/lease-devices.js';
import type { DeviceInfo } from '../../engine/types.js';
import { defineExtensionMethod, type MethodContext, type MethodDef } from '../registry.js';

const LeaseParams = v.strictObject({
  /** Any free ready device of this platform, from every source (local and peers)… */
  platform: v.optional(v.picklist(['android', 'ios', 'any'], 'platform must be android, ios or any')),
  /** …or this one device, once it is free. */
  device: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(500))),
  /** How long to wait in line; 0 takes a free one or fails at once. */
  timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 3600 * 1000)), 0),
});
type Lease = v.InferOutput<typeof LeaseParams>;

interface Waiter {
  queue: string;
  session: MethodContext['session'];
  connection: MethodContext['connection'];
  /** Whether this waiter would take the device (its platform, or its one device as listed here). */
  wants(d: DeviceInfo): boolean;
}

/** `wanted`: the named device as listed here (`id@peer` is listed bare while no other source reports `id`). */
const matcher = (p: Lease, wanted: string | undefined) => (d: DeviceInfo) => (!wanted || d.id === wanted) && onPlatform(p, d);

const onPlatform = (p: Lease, d: DeviceInfo): boolean => !p.platform || p.platform === 'any' || (p.platform === 'ios') === (d.os === 'iOS');

/**
 * The caller can still get the answer: the request's socket is still the session's. A CI job killed
 * while it waits (its socket gone, its session kept for a resume) must neither hold the line nor
 * take a device nobody will use.
 */
const listening = (w: Pick<Waiter, 'session' | 'connection'>) => !w.session.ended && w.session.connection === w.connection;

const POLL_MS = 200;
const usable = (d: DeviceInfo) => d.state !== 'offline' && d.state !== 'unauthorized';

/**
 * devices.lease: the device lock made queueable for CI. Waiters stand in one first-come, first-served
 * line; each takes the first ready device it wants that no session has locked and no waiter ahead of
 * it wants, on this bridge or, through an aggregator, on a peer (where the lock is taken on the peer).
 * The lease is the ordinary lock: scenarios.run keeps it, devices.unlock or the session's end frees it.
 */
export function leaseMethods(): MethodDef[] {
  const line: Waiter[] = [];

  /**
   * First come, first served across lines too: a device that a waiter `ahead` (of any line: a
   * `platform: any` job and an `android` one both want an Android phone) would take is left to it,
   * whichever of the two polls first once the device is free.
   */
  async function tryTake(p: Lease, me: Waiter, ahead: Waiter[], ctx: MethodContext): Promise<{ lock: Record<string, unknown>; onPeer: boolean } | undefined> {
    const devices = (await ctx.engine.listDevices()).filter((d) => usable(d) && me.wants(d) && !ahead.some((w) => w.wants(d)));
    for (const d of devices) {
      const onPeer = await ctx.bridge.peers?.onPeer(d.id);
      if (onPeer) {
        if (isToolFailure(onPeer)) continue;
        const r = await ctx.bridge.peers!.lockOnPeer(onPeer, ctx);
        // Named id@peer even while listed bare: another peer with the same ids may come back during the
        // run, and the bare id would then be ambiguous and every call of the job refused.
        if (!isToolFailure(r)) return { lock: { ...(r as object), device: `${onPeer.remote}@${onPeer.peer.name}`, source: d.source }, onPeer: true };
        continue;
      }
      if (ctx.bridge.locks.holder(d.id)) continue;
      const r = ctx.bridge.locks.acquire(d.id, ctx.session, false, true);
      if (!isToolFailure(r)) return { lock: { ...r, device: p.device ?? d.id, source: d.source }, onPeer: false };
    }
    return undefined;
  }

  /**
   * Why no device could be leased, as the caller needs it: a device that is not connected at all
   * (a typo, or unplugged) is DEVICE_NOT_FOUND, since waiting longer would not help unless it is
   * plugged in; otherwise each matching device with its holder or state, so the caller can ask
   * the holder, take over, or wait.
   */
  async function noLease(p: Lease, me: Waiter, ctx: MethodContext, ahead: number): Promise<ToolFailure> {
    const listed = await ctx.engine.listDevices();
    const matching = listed.filter(me.wants);
    const wait = LEASE_WAIT_LONGER;
    if (!matching.length) {
      // A peer or adb server that does not answer is the likeliest reason in a lab: its phones are not listed at all.
      const notes = ctx.engine.sourceProblems();
      const silent = notes.length ? `; sources that do not answer, whose devices cannot be listed: ${notes.join('; ')}` : '';
      const message = p.device
        ? `${deviceNotFoundMessage(p.device, listed.map((d) => d.id))} (waited ${p.timeout_ms} ms)${silent}; check the id, or plug the device in and ${wait}`
        : `no ${p.platform === 'any' ? '' : `${p.platform} `}device is connected to the bridge (devices: ${listed.map((d) => d.id).join(', ') || 'none'})${silent}; connect one, or ${wait}`;
      return failure('DEVICE_NOT_FOUND', message);
    }
    const states = matching.map((d) => {
      const lock = ctx.bridge.locks.info(d.id);
      if (lock) return `${d.id} locked by session ${lock.holder.session}${lock.holder.client ? ` (${lock.holder.client})` : ''} since ${lock.since}`;
      if (!usable(d)) return `${d.id} ${d.state}${d.message ? ` (${d.message})` : ''}`;
      return `${d.id} not free (held on its peer bridge, or by a caller ahead in line)`;
    });
    const when = `within ${p.timeout_ms} ms${ahead > 0 ? ` (${ahead} waiting ahead)` : ''}`;
    return failure('TIMEOUT', `no free ${p.device ? `device ${p.device}` : `${p.platform} device`} ${when}: ${states.join('; ')}; ${wait}, or ${LEASE_ASK_HOLDER}`);
  }

  return [
    defineExtensionMethod('devices.lease', LeaseParams, async (p, ctx) => {
      if (!p.platform && !p.device) return failure('INVALID_PARAMETER', 'devices.lease needs platform (android, ios or any) or device');
      // A bare id that several peers report can never be leased: say so now, naming the id@peer choices.
      const target = p.device ? await ctx.bridge.peers?.onPeer(p.device) : undefined;
      if (target && isToolFailure(target)) return target;
      const wanted = target ? ctx.bridge.peers!.listedId(target.peer, target.remote) : p.device;
      // Both given and at odds: no wait would ever lease it (a CI job asking for an Android phone by an iPhone's id).
      const named = wanted && p.platform && p.platform !== 'any' ? (await ctx.engine.listDevices()).find((d) => d.id === wanted) : undefined;
      if (named && !onPlatform(p, named)) {
        return failure('INVALID_PARAMETER', `device ${p.device} is ${named.os === 'iOS' ? 'an iOS' : 'an Android'} device, not ${p.platform}; drop platform, or name ${p.platform === 'ios' ? 'an iOS' : 'an Android'} device`);
      }
      const queue = p.device ? `device ${p.device}` : `${p.platform} device`;
      const me: Waiter = { queue, session: ctx.session, connection: ctx.connection, wants: matcher(p, wanted) };
      line.push(me);
      const until = Date.now() + p.timeout_ms;
      try {
        for (;;) {
          if (!listening(me)) return failure('INVALID_PARAMETER', 'the caller disconnected while waiting for a lease');
          if (ctx.signal.aborted) return failure('INVALID_PARAMETER', 'the wait for a lease was cancelled (requests.cancel, or the bridge is shutting down); nothing was leased');
          const ahead = line.slice(0, line.indexOf(me)).filter(listening);
          // One ahead in the same line wants all this one wants: no need to list the devices (every 200 ms, per waiter).
          const got = ahead.some((w) => w.queue === queue) ? undefined : await tryTake(p, me, ahead, ctx);
          if (got && !listening(me)) {
            // Dropped while the lock was being taken: a peer's lock is undone by the router, a local one here.
            if (!got.onPeer) ctx.bridge.locks.release(String(got.lock.device), ctx.session, 'its holder disconnected');
            return failure('INVALID_PARAMETER', 'the caller disconnected while waiting for a lease');
          }
          if (got) return got.lock;
          if (Date.now() >= until) {
            return await noLease(p, me, ctx, line.slice(0, line.indexOf(me)).filter((w) => w.queue === queue).length);
          }
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
      } finally {
        line.splice(line.indexOf(me), 1);
      }
    }),
  ];
}
