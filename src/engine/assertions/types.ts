import type { Assertion } from '../../validate/index.js';
import type { ElementListing } from '../driver.js';
import type { ScreenCapture } from '../screen/capture.js';
import type { ScreenSize } from '../ui-tree.js';
import type { VerbContext } from '../verbs/index.js';

/** A scenario variable's value (captured or declared); null until something fills it. */
export type VariableValue = string | number | boolean | null;

/** What an assertion may look at. Listings and screenshots are taken lazily and shared. */
export interface AssertionEnv {
  verbs: VerbContext;
  /** The listing, with its `note` when the device had one (a crash dialog over the app, a tree cut short). */
  elements(): Promise<ElementListing>;
  /** The screen's pixels (raw or the device's own encoding): encode with pngOf only to write a file. */
  screenshot(): Promise<ScreenCapture>;
  screen(): Promise<ScreenSize>;
  variables: Record<string, VariableValue>;
  /** text_changed: the element's text just before the step ran (null: it was not on screen). */
  textBefore(assertionId: string): string | null | undefined;
  /** toast_visible: toast texts seen since the step began. */
  toastsSeen: readonly string[];
  /** Folder the scenario file is in; reference screenshots are relative to it. */
  scenarioDir: string;
  darkMode(): Promise<{ dark: boolean; source: string }>;
  keyboard(): Promise<boolean>;
}

export interface Verdict {
  pass: boolean;
  expected?: unknown;
  actual?: unknown;
  message: string;
  /** An error, not a failure: the check itself could not be made (bad regex, unreadable file). */
  error?: boolean;
}

export type Evaluator<T extends Assertion['type'] = Assertion['type']> = (a: Extract<Assertion, { type: T }>, env: AssertionEnv) => Promise<Verdict>;
