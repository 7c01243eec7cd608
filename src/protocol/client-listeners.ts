import type { DecodedFrame } from './frame.js';
import type { ConnectionState, SessionEvent } from './client-types.js';

type Listener<T> = (value: T) => void;

/**
 * The client's listeners, one set per kind of event. A listener that throws does not stop the
 * others: its error goes to the error listeners (and one thrown there goes nowhere, so an error
 * listener cannot loop).
 */
export class ClientListeners {
  private readonly notifications = new Map<string, Set<Listener<unknown>>>();
  private readonly frames = new Set<Listener<DecodedFrame>>();
  private readonly states = new Set<Listener<ConnectionState>>();
  private readonly sessions = new Set<Listener<SessionEvent>>();
  private readonly errors = new Set<Listener<Error>>();

  onNotification(name: string, listener: Listener<unknown>): () => void {
    let set = this.notifications.get(name);
    if (!set) this.notifications.set(name, (set = new Set()));
    return add(set, listener);
  }

  onFrame = (listener: Listener<DecodedFrame>) => add(this.frames, listener);
  onState = (listener: Listener<ConnectionState>) => add(this.states, listener);
  onSession = (listener: Listener<SessionEvent>) => add(this.sessions, listener);
  onError = (listener: Listener<Error>) => add(this.errors, listener);

  notification(name: string, params: unknown): void {
    const set = this.notifications.get(name);
    if (set) this.emit(set, params);
  }

  frame = (frame: DecodedFrame) => this.emit(this.frames, frame);
  state = (state: ConnectionState) => this.emit(this.states, state);
  session = (event: SessionEvent) => this.emit(this.sessions, event);
  error = (err: Error) => this.emit(this.errors, err);

  private emit<T>(listeners: Set<Listener<T>>, value: T): void {
    for (const l of [...listeners]) {
      try {
        l(value);
      } catch (err) {
        if (listeners !== (this.errors as Set<unknown>)) this.error(err as Error);
      }
    }
  }
}

function add<T>(set: Set<Listener<T>>, listener: Listener<T>): () => void {
  set.add(listener);
  return () => set.delete(listener);
}
