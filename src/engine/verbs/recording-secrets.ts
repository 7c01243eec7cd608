import { ENV_PREFIX } from '../runner/parameters.js';
import type { UiElement } from '../types.js';
import type { ResolvedElement } from './types.js';

type SecretParameter = { description: string; secret: true };

/**
 * What keeps passwords out of a recording across a crash (RecordingStore's file): the names of the
 * secret parameters and where the focus is, never what was typed.
 */
export interface SecretsSnapshot {
  parameters: Record<string, SecretParameter>;
  passwordFocused: boolean;
  focusUnknown: boolean;
  passwordOnScreen: boolean;
}

/** A step value the recorder wrote for a password: `${PASSWORD}` or `${PASSWORD_2}`, with a submit perhaps. */
const STAND_IN = /^\$\{(PASSWORD(?:_[0-9]+)?)\}\n?$/;

/**
 * Keeps passwords out of a recording: follows whether the focused field is a password field, and
 * names the secret parameter a step types instead of what was typed into one.
 */
export class RecordingSecrets {
  /** Secret parameters (schema 2.2) standing for what was typed into password fields. */
  readonly parameters: Record<string, SecretParameter> = {};
  /** The field that has focus is a password field (the last tap or targeted type landed on one). */
  private passwordFocused = false;
  /** Something unrecorded may have moved the focus since (a Tab key): which field has it is not known. */
  private focusUnknown = false;
  /** The last listing of the device showed a password field. */
  private passwordOnScreen = false;

  snapshot(): SecretsSnapshot {
    return { parameters: this.parameters, passwordFocused: this.passwordFocused, focusUnknown: this.focusUnknown, passwordOnScreen: this.passwordOnScreen };
  }

  /**
   * The secrets of a restored recording. A file written before the secrets were saved has only the
   * steps: each stand-in they type is declared again, and the focus counts as unknown, on a
   * password field if the last step typed one.
   */
  static restore(saved: SecretsSnapshot | undefined, steps: readonly { action: string; target?: string; value?: string }[]): RecordingSecrets {
    const secrets = new RecordingSecrets();
    Object.assign(secrets.parameters, saved?.parameters);
    const typedSecret = (s: { action: string; value?: string } | undefined) => (s?.action === 'type' ? STAND_IN.exec(s.value ?? '')?.[1] : undefined);
    for (const step of steps) {
      const name = typedSecret(step);
      if (name && !(name in secrets.parameters)) secrets.declare(name, step.target);
    }
    if (saved) {
      secrets.passwordFocused = saved.passwordFocused === true;
      secrets.focusUnknown = saved.focusUnknown === true;
      secrets.passwordOnScreen = saved.passwordOnScreen === true;
    } else {
      secrets.passwordFocused = typedSecret(steps.at(-1)) !== undefined;
      secrets.focusUnknown = true;
    }
    return secrets;
  }

  /**
   * A listing of the device by anyone: the focused field it shows is where untargeted typing goes,
   * and whether a password field is on screen decides what unknown focus counts as. True when
   * that changed what is known (worth saving: a restored recording must know it too).
   */
  noteFields(elements: readonly UiElement[]): boolean {
    const before = [this.passwordOnScreen, this.passwordFocused, this.focusUnknown].join();
    this.passwordOnScreen = elements.some((e) => e.password === true);
    const focused = elements.find((e) => e.focused === true && e.type === 'edittext');
    if (focused) {
      this.passwordFocused = focused.password === true;
      this.focusUnknown = false;
    }
    return [this.passwordOnScreen, this.passwordFocused, this.focusUnknown].join() !== before;
  }

  /** Something unrecorded (a Tab key) may have moved the focus. */
  focusMayHaveMoved(): void {
    this.focusUnknown = true;
  }

  /** A recorded step acted on `resolved` (nothing known: no password field): the focus is there now. */
  focusedOn(resolved: ResolvedElement | null): void {
    this.passwordFocused = resolved?.password === true;
    this.focusUnknown = false;
  }

  /**
   * Whether typing went into a password field: the field it resolved says so, else untargeted typing
   * goes to the focused field. With the focus unknown it counts as a password while one is on
   * screen: a secret recorded as plain text cannot be taken back, a plain text kept as a parameter can.
   */
  typedIntoPassword(resolved: ResolvedElement | null, targeted: boolean): boolean {
    if (resolved) return resolved.password === true;
    const focusedPassword = this.focusUnknown ? this.passwordOnScreen || this.passwordFocused : this.passwordFocused;
    return !targeted && focusedPassword;
  }

  /**
   * A password never goes into the scenario: the step types `${PASSWORD}`, declared as a secret
   * parameter that the replay gets from --param, --params-file or MB_PARAM_PASSWORD (scenarios.run: its "parameters").
   */
  standIn(typed: string, field: string | undefined): string {
    let name = 'PASSWORD';
    for (let n = 2; name in this.parameters; n++) name = `PASSWORD_${n}`;
    this.declare(name, field);
    // A submit typed with the text (raw mobile_type_keys submit: true) stays a submit.
    return typed.endsWith('\n') ? `\${${name}}\n` : `\${${name}}`;
  }

  private declare(name: string, field: string | undefined): void {
    // The file may be replayed by `mobilebridge run` or over a bridge, whichever recorded it: name both ways.
    const where = field ? JSON.stringify(field) : 'a password field';
    this.parameters[name] = {
      description: `typed into ${where} while recording; give it at replay: mobilebridge run --param ${name}=... (or ${ENV_PREFIX}${name}), or over a bridge scenarios.run's "parameters": {"${name}": "..."}`,
      secret: true,
    };
  }
}
