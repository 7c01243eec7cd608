import { el } from './dom.js';
import { quickFixes, type QuickFix } from './quick-fix.js';
import { requestFailedText } from './request-failure.js';
import { newScenarioTemplate } from './scenario-template.js';
import { offsetOf, summarizeEnvelope, type Issue } from './validation-summary.js';
import { suggestionAddsTo } from '../../src/validate/suggest.js';
import { decodeText } from '../../src/validate/text-decode.js';

/** Scenario files are small; anything this big is a mistake (and over the bridge's message cap). */
const MAX_FILE_BYTES = 900 * 1024;
/** The editor's text, kept per tab: a reload (or the page shown after a lost connection) does not empty it. */
const DRAFT_KEY = 'mobilebridge.viewer.scenario';

/**
 * Validates a pasted or dropped scenario and lists its errors with line and column; clicking
 * a position puts the cursor there in the text. The scenario is sent as text so the
 * positions point into exactly what the user sees.
 */
export class ValidatorPanel {
  private fileName: string | undefined;
  /** Quick fixes of the last result, for the text it was validated from. */
  private fixes = new Map<Issue, QuickFix>();
  /** What was last put in the box whole (a file, New scenario, a recording): text equal to it holds no edits to lose. */
  private loaded = '';

  constructor(
    form: HTMLFormElement,
    private readonly text: HTMLTextAreaElement,
    fileInput: HTMLInputElement,
    private readonly result: HTMLElement,
    private readonly validate: (scenario: string, file: string | undefined) => Promise<unknown>,
  ) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.run();
    });
    text.addEventListener('input', () => {
      this.fileName = undefined;
      keepDraft(text.value);
    });
    if (!text.value) text.value = readDraft();
    fileInput.addEventListener('change', () => {
      const file = fileInput.files?.[0];
      if (file) void this.load(file);
      fileInput.value = '';
    });
    form.addEventListener('dragover', (e) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      form.classList.add('dragging');
    });
    form.addEventListener('dragleave', () => form.classList.remove('dragging'));
    form.addEventListener('drop', (e) => {
      form.classList.remove('dragging');
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      e.preventDefault();
      void this.load(file);
    });
  }

  /** Puts the New scenario template in the text (after asking, when there is text to lose) and validates it. */
  async newScenario(platform: 'android' | 'ios' = 'android'): Promise<void> {
    const template = newScenarioTemplate(platform);
    if (!this.mayReplace(template, 'a new one')) return;
    this.replace(template, undefined);
    this.text.focus();
    this.text.setSelectionRange(0, 0);
    await this.run();
  }

  private async load(file: File): Promise<void> {
    if (file.size > MAX_FILE_BYTES) {
      this.showMessage(`${file.name} is ${Math.round(file.size / 1024)} KiB; scenario files over ${MAX_FILE_BYTES / 1024} KiB are not accepted.`, true);
      return;
    }
    const decoded = decodeText(new Uint8Array(await file.arrayBuffer()));
    if (!('text' in decoded)) {
      this.showMessage(`${file.name} is ${decoded.problem}; save it as UTF-8 and open it again.`, true);
      return;
    }
    if (!this.mayReplace(decoded.text, file.name)) return;
    this.replace(decoded.text, file.name);
    await this.run();
  }

  /**
   * Puts a scenario in the box (Open in Validate) and validates it, after asking when that would lose
   * edits; false when the user kept their text.
   */
  open(text: string, fileName: string): boolean {
    if (!this.mayReplace(text, fileName)) return false;
    this.replace(text, fileName);
    void this.run();
    return true;
  }

  /** Whether the box's text may give way to `next`: nothing there, nothing edited since it was loaded, or the user agrees. */
  private mayReplace(next: string, what: string): boolean {
    const now = this.text.value;
    if (!now.trim() || now === this.loaded || now === next) return true;
    return confirm(`Replace the scenario in the text box with ${what}? What is there now is lost.`);
  }

  private replace(text: string, fileName: string | undefined): void {
    this.text.value = text;
    this.loaded = text;
    this.fileName = fileName;
    keepDraft(text);
  }

  private async run(): Promise<void> {
    const scenario = this.text.value;
    if (!scenario.trim()) {
      this.showMessage('Paste a scenario (JSON) or drop a file first.', true);
      this.text.focus();
      return;
    }
    this.result.setAttribute('aria-busy', 'true');
    try {
      const summary = summarizeEnvelope(await this.validate(scenario, this.fileName));
      this.fixes = quickFixes(summary.issues, scenario);
      this.render(summary);
    } catch (err) {
      this.showMessage(requestFailedText('Could not validate', err), true);
    } finally {
      this.result.removeAttribute('aria-busy');
    }
  }

  /**
   * Lists what a run refused (scenarios.run's envelope, for the text it was given). That check had
   * the bridge's folder, so it reads the flow files this tab's own check can only warn about.
   */
  showRunRefusal(envelope: unknown, scenario: string): void {
    const summary = summarizeEnvelope(envelope);
    this.fixes = quickFixes(summary.issues, scenario);
    this.render({ ...summary, headline: `Not run — ${summary.headline} (checked with its flow files, in the bridge's folder)` });
  }

  private showMessage(message: string, bad: boolean): void {
    this.result.replaceChildren(el('p', { class: `verdict ${bad ? 'bad' : 'ok'}` }, message));
  }

  private render(summary: ReturnType<typeof summarizeEnvelope>): void {
    const heading = el('p', { class: `verdict ${summary.valid ? 'ok' : 'bad'}` }, (this.fileName ? `${this.fileName}: ` : '') + summary.headline);
    const items = summary.issues.map((issue) => this.issueItem(issue));
    this.result.replaceChildren(heading, items.length ? el('ul', { class: 'issues' }, ...items) : '');
  }

  private issueItem(issue: Issue): HTMLLIElement {
    const position = issue.line !== undefined ? `line ${issue.line}${issue.column !== undefined ? `, column ${issue.column}` : ''}` : undefined;
    const where = el(
      'div',
      { class: 'where' },
      position ? this.jumpButton(position, issue.line!, issue.column ?? 1) : null,
      issue.rule ? ` ${issue.rule}` : '',
      issue.path ? ` at ${issue.path}` : '',
    );
    return el(
      'li',
      { class: issue.severity },
      where,
      el('div', {}, `${issue.severity === 'warning' ? 'Warning: ' : ''}${issue.message}`),
      suggestionAddsTo(issue.message, issue.suggestion) ? el('div', { class: 'suggestion' }, issue.suggestion) : null,
      this.fixButton(this.fixes.get(issue)),
    );
  }

  /** Applies the fix to the text and validates again; a text edited since refuses the fix and is just re-validated. */
  private fixButton(fix: QuickFix | undefined): HTMLButtonElement | null {
    if (!fix) return null;
    const button = el('button', { type: 'button', class: 'quick-fix', title: 'Edit the text as shown and validate again' }, `Fix: ${fix.label}`);
    button.addEventListener('click', () => {
      const fixed = fix.apply(this.text.value);
      if (fixed !== undefined) {
        this.text.value = fixed;
        keepDraft(fixed);
      }
      void this.run();
    });
    return button;
  }

  private jumpButton(label: string, line: number, column: number): HTMLButtonElement {
    const button = el('button', { type: 'button', title: 'Show this position in the text' }, label);
    button.addEventListener('click', () => {
      const at = offsetOf(this.text.value, line, column);
      this.text.focus();
      this.text.setSelectionRange(at, at);
      // Scroll the line into view: a textarea has no API for that, so estimate from the line height.
      const lineHeight = parseFloat(getComputedStyle(this.text).lineHeight) || 16;
      this.text.scrollTop = Math.max(0, (line - 3) * lineHeight);
    });
    return button;
  }
}

function keepDraft(text: string): void {
  try {
    sessionStorage.setItem(DRAFT_KEY, text);
  } catch {
    // Storage off or full: the text lives as long as the page.
  }
}

function readDraft(): string {
  try {
    return sessionStorage.getItem(DRAFT_KEY) ?? '';
  } catch {
    return '';
  }
}
