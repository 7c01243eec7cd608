const MAX_ID_LENGTH = 40;

/** A scenario id made of words: snake_case, at most 40 characters, starting with a letter (else with `fallback`). */
export function snakeCase(text: string, fallback: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_ID_LENGTH)
    .replace(/_+$/, '');
  if (!words) return fallback;
  return /^[a-z]/.test(words) ? words : `${fallback}_${words}`.slice(0, MAX_ID_LENGTH);
}

/** The ids of one scenario document's steps and assertions, which must all differ. */
export class ScenarioIds {
  private readonly taken: Set<string>;

  constructor(taken: Iterable<string> = []) {
    this.taken = new Set(taken);
  }

  /** `base`, or `base_2`, `base_3`… (still within the length limit) when it is taken; taken from now on. */
  claim(base: string): string {
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base.slice(0, MAX_ID_LENGTH - String(n).length - 1)}_${n}`;
    this.taken.add(id);
    return id;
  }

  release(id: string): void {
    this.taken.delete(id);
  }

  /** Gives up `id` and claims one made from `base` instead (a step whose content changed). */
  rename(id: string, base: string): string {
    this.release(id);
    return this.claim(base);
  }

  list(): string[] {
    return [...this.taken];
  }
}
