import type { Rect } from '../../types.js';
import type { Box } from './layout.js';
import type { Palette } from './theme.js';
import type { ButtonView, ColorName, ContainerView, FieldView, SwitchView } from './view.js';

export interface PaintInput {
  width: number;
  height: number;
  density: number;
  fontFamily: string;
  platform: 'android' | 'ios';
  palette: Palette;
  /** Bottom to top; a layer with a scrim dims everything below it. */
  layers: { box: Box; scrim?: boolean }[];
}

/** An axis-aligned rectangle filled with one colour (`#RRGGBB` or `#RRGGBBAA`), no antialiasing. */
export interface FillOp {
  kind: 'fill';
  rect: Rect;
  color: string;
  /** Scroll viewport the op is clipped to (integer pixels), null for none. */
  clip: Rect | null;
}

/**
 * Anything that needs a real rasterizer (text, rounded shapes, strokes): an SVG fragment in
 * coordinates local to the integer origin (x, y), drawn inside width × height. Local coordinates
 * make the fragment a cache key that survives scrolling: the same row moved by whole pixels has
 * the same fragment.
 */
export interface ShapeOp {
  kind: 'shape';
  x: number;
  y: number;
  width: number;
  height: number;
  svg: string;
  clip: Rect | null;
}

export type PaintOp = FillOp | ShapeOp;

/** What one screen draws, in painting order: the single source both rasterizers work from. */
export interface Paint {
  width: number;
  height: number;
  /** Attributes every fragment is drawn with (fonts, no antialiasing of shape edges). */
  rootAttributes: string;
  ops: PaintOp[];
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Fragments keep two decimals at most so equal geometry gives equal cache keys. */
const num = (v: number) => String(Math.round(v * 100) / 100);

/** Worst-case glyph advance and overhang of the UI fonts, in em: text boxes must hold every glyph. */
const MAX_ADVANCE_EM = 1.2;
/**
 * Smallest advance of a character of SAFE_TEXT in DejaVu Sans ('i', 'l' and ''' are ~0.28 em; CJK,
 * emoji and the other characters visiblePart counts are wider),
 * with room for hinting. Characters that start beyond the screen edge at this pace cannot show.
 */
const MIN_ADVANCE_EM = 0.2;
/** A typical advance of the UI font's letters, for the width of a selection highlight. */
const SELECTION_ADVANCE_EM = 0.55;
/** Latin text (no combining marks, no right-to-left), whose characters all advance. */
const SAFE_TEXT = /^[\u0020-\u007e\u00a0-\u024f\u2022]*$/;
/** Right-to-left scripts and controls: their first characters may be drawn at the far end. */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u200f\u202b\u202e\u2067]|[\ud802\ud803\ud83a\ud83b][\udc00-\udfff]/;
/**
 * Characters not counted as advancing: marks, format and control characters, variation
 * selectors, the hair space and Hangul jamo (they combine or take less than MIN_ADVANCE_EM).
 */
const NOT_COUNTED = /^[\p{M}\p{Cf}\p{Cc}\ufe00-\ufe0f\u200a\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]$/u;

/**
 * The line without the characters that start beyond `fits` advancing characters, which cannot
 * show (Latin text by length; other left-to-right text by counting only characters that advance;
 * right-to-left text whole). A field holding a 90 000-character paste otherwise cost librsvg
 * minutes per frame.
 */
function visiblePart(line: string, fits: number): string {
  if (line.length <= fits) return line;
  if (SAFE_TEXT.test(line)) return line.slice(0, fits);
  if (RIGHT_TO_LEFT.test(line)) return line;
  let advancing = 0;
  for (let k = 0; k < line.length; ) {
    const c = String.fromCodePoint(line.codePointAt(k)!);
    if (!NOT_COUNTED.test(c)) {
      if (advancing === fits) return line.slice(0, k);
      advancing++;
    }
    k += c.length;
  }
  return line;
}
const ASCENT_EM = 1.3;
const DESCENT_EM = 0.6;

/**
 * Turns laid-out boxes into paint ops. Every shape is drawn inside its box's rect so that element
 * bounds and screenshot pixels agree; scroll containers clip their children to what is visible.
 */
export class Painter {
  private ops: PaintOp[] = [];
  private clip: Rect | null = null;

  constructor(private readonly input: PaintInput) {}

  paint(): Paint {
    const { width, height, palette, fontFamily } = this.input;
    const screen = { x: 0, y: 0, width, height };
    this.fill(screen, palette.background);
    for (const layer of this.input.layers) {
      if (layer.scrim) this.fill(screen, palette.scrim);
      this.box(layer.box);
    }
    return {
      width,
      height,
      rootAttributes: `font-family="${escapeXml(fontFamily)}" shape-rendering="crispEdges" text-rendering="optimizeSpeed"`,
      ops: this.ops,
    };
  }

  private color(name: ColorName | undefined, fallback: ColorName): string {
    return this.input.palette[name ?? fallback];
  }

  private dp(v: number): number {
    return Math.round(v * this.input.density);
  }

  private fill(rect: Rect, color: string): void {
    if (rect.width > 0 && rect.height > 0) this.ops.push({ kind: 'fill', rect, color, clip: this.clip });
  }

  /** A shape op covering `bounds` (cut to the screen); `draw` writes the fragment at an origin. */
  private shape(bounds: { x0: number; y0: number; x1: number; y1: number }, draw: (ox: number, oy: number) => string): void {
    const x = Math.max(0, Math.floor(bounds.x0));
    const y = Math.max(0, Math.floor(bounds.y0));
    const width = Math.min(this.input.width, Math.ceil(bounds.x1)) - x;
    const height = Math.min(this.input.height, Math.ceil(bounds.y1)) - y;
    if (width > 0 && height > 0) this.ops.push({ kind: 'shape', x, y, width, height, svg: draw(x, y), clip: this.clip });
  }

  private rect(r: Rect, fill: string, radius = 0): void {
    if (!radius) return this.fill(r, fill);
    if (r.width <= 0 || r.height <= 0) return;
    const rx = Math.min(radius, r.height / 2, r.width / 2);
    this.shape({ x0: r.x, y0: r.y, x1: r.x + r.width, y1: r.y + r.height }, (ox, oy) =>
      `<rect x="${num(r.x - ox)}" y="${num(r.y - oy)}" width="${num(r.width)}" height="${num(r.height)}" rx="${num(rx)}" fill="${fill}"/>`);
  }

  private text(
    lines: string[], r: Rect, fontPx: number, fill: string,
    opts: { align?: 'start' | 'center' | 'end'; bold?: boolean; inset?: number } = {},
  ): void {
    if (!lines.some((l) => l.length)) return;
    const lineHeight = Math.round(fontPx * 1.4);
    const top = r.y + (r.height - lineHeight * lines.length) / 2;
    const inset = opts.inset ?? 0;
    const anchor = opts.align === 'center' ? 'middle' : opts.align === 'end' ? 'end' : 'start';
    const x = opts.align === 'center' ? r.x + r.width / 2 : opts.align === 'end' ? r.x + r.width - inset : r.x + inset;
    const weight = opts.bold ? ' font-weight="bold"' : '';
    const baselines = lines.map((_, i) => Math.round(top + i * lineHeight + lineHeight / 2 + fontPx * 0.36));
    if (anchor === 'start') {
      // A long field value runs far past the screen; librsvg's cost grows with every glyph
      // (~20 ms for 250), so drop the characters that start beyond the right edge for sure.
      const fits = Math.max(1, Math.ceil((this.input.width - x) / (fontPx * MIN_ADVANCE_EM)) + 1);
      lines = lines.map((l) => visiblePart(l, fits));
    }
    const extent = Math.max(...lines.map((l) => [...l].length)) * fontPx * MAX_ADVANCE_EM + fontPx;
    const left = anchor === 'start' ? x - fontPx : anchor === 'middle' ? x - extent / 2 : x - extent;
    this.shape(
      { x0: left, y0: baselines[0] - fontPx * ASCENT_EM, x1: left + extent + fontPx, y1: baselines[baselines.length - 1] + fontPx * DESCENT_EM },
      (ox, oy) => {
        const tspans = lines.map((line, i) => `<tspan x="${num(x - ox)}" y="${baselines[i] - oy}">${escapeXml(line)}</tspan>`).join('');
        return `<text font-size="${fontPx}" fill="${fill}" text-anchor="${anchor}"${weight} xml:space="preserve">${tspans}</text>`;
      },
    );
  }

  private box(box: Box): void {
    if (!box.visible) return;
    const v = box.view;
    switch (v.kind) {
      case 'column':
      case 'row':
        return this.container(box, v);
      case 'text':
        return this.text(box.lines ?? [], box.rect, box.fontPx ?? this.dp(16), this.color(v.color, 'onSurface'), {
          align: v.align, bold: v.bold,
        });
      case 'field':
        return this.field(box.rect, v);
      case 'button':
        return this.button(box.rect, v);
      case 'switch':
        return this.switch(box.rect, v);
      case 'spinner':
        return this.spinner(box.rect);
      case 'image':
        this.rect(box.rect, this.color(v.color, 'image'), this.dp(v.radius ?? 12));
        if (v.glyph) this.text([v.glyph], box.rect, Math.round(box.rect.height * 0.4), this.color(v.glyphColor, 'onImage'), { align: 'center' });
        return;
      case 'spacer':
        return;
    }
  }

  private container(box: Box, v: ContainerView): void {
    const { palette } = this.input;
    if (v.bg) this.rect(box.rect, palette[v.bg], v.radius ? this.dp(v.radius) : 0);
    if (v.selected) this.rect(box.rect, palette.surfaceVariant, v.radius ? this.dp(v.radius) : 0);
    if (v.border) {
      const r = box.rect;
      this.fill({ x: r.x, y: r.y + r.height - 1, width: r.width, height: 1 }, palette[v.border]);
    }
    if (box.scroll && box.visible) {
      const outer = this.clip;
      this.clip = box.visible;
      box.children.forEach((child) => this.box(child));
      this.clip = outer;
      return;
    }
    box.children.forEach((child) => this.box(child));
  }

  private field(r: Rect, v: FieldView): void {
    const { palette, platform } = this.input;
    const font = this.dp(16);
    if (platform === 'android') {
      const stroke = v.focused ? this.dp(2) : this.dp(1);
      this.rect(r, v.focused ? palette.primary : palette.outline, this.dp(4));
      this.rect({ x: r.x + stroke, y: r.y + stroke, width: r.width - 2 * stroke, height: r.height - 2 * stroke }, palette.background, this.dp(3));
    } else {
      this.rect(r, v.focused ? palette.primary : palette.outline, this.dp(10));
      const s = this.dp(1);
      this.rect({ x: r.x + s, y: r.y + s, width: r.width - 2 * s, height: r.height - 2 * s }, palette.surface, this.dp(9));
    }
    const shown = v.password ? '•'.repeat(v.value.length) : v.value;
    const value = shown || v.hint;
    const caret = v.focused ? '|' : '';
    if (v.selected && shown) {
      // Behind the text, about as wide as it: the renderer does not measure glyphs.
      const lineHeight = Math.round(font * 1.4);
      const width = Math.min(r.width - this.dp(32), [...shown].length * font * SELECTION_ADVANCE_EM);
      this.rect({ x: r.x + this.dp(16), y: r.y + (r.height - lineHeight) / 2, width, height: lineHeight }, palette.selection, 0);
    }
    this.text([value + (shown && !v.selected ? caret : '')], r, font, shown ? palette.onSurface : palette.muted, { inset: this.dp(16) });
  }

  private button(r: Rect, v: ButtonView): void {
    const { palette } = this.input;
    const enabled = v.enabled !== false;
    const font = this.dp(v.style === 'key' ? 20 : 16);
    switch (v.style ?? 'filled') {
      case 'filled':
        this.rect(r, enabled ? palette.primary : palette.disabled, this.dp(24));
        this.text([v.text], r, font, enabled ? palette.onPrimary : palette.onDisabled, { align: 'center', bold: true });
        return;
      case 'tonal':
        this.rect(r, enabled ? palette.surfaceVariant : palette.disabled, this.dp(24));
        this.text([v.text], r, font, enabled ? palette.onSurface : palette.onDisabled, { align: 'center' });
        return;
      case 'key':
        this.rect(r, palette.key, this.dp(6));
        this.text([v.text], r, font, palette.onSurface, { align: 'center' });
        return;
      case 'text':
        this.text([v.text], r, font, enabled ? this.color(v.color, 'primary') : palette.onDisabled, { align: 'center', bold: true });
        return;
      case 'icon':
        this.text([v.glyph ?? v.text], r, this.dp(24), enabled ? this.color(v.color, 'onSurface') : palette.onDisabled, { align: 'center' });
        return;
    }
  }

  private switch(r: Rect, v: SwitchView): void {
    const { palette, platform } = this.input;
    const trackW = this.dp(52);
    const trackH = this.dp(32);
    const track = { x: r.x + r.width - trackW, y: r.y + Math.round((r.height - trackH) / 2), width: trackW, height: trackH };
    this.text([v.text], { ...r, width: r.width - trackW }, this.dp(16), palette.onSurface);
    const on = platform === 'ios' ? palette.success : palette.primary;
    this.rect(track, v.checked ? on : palette.surfaceVariant, trackH / 2);
    const knob = trackH / 2 - this.dp(4);
    const cx = v.checked ? track.x + trackW - trackH / 2 : track.x + trackH / 2;
    const cy = track.y + trackH / 2;
    const fill = v.checked ? palette.onPrimary : palette.outline;
    this.shape({ x0: cx - knob - 1, y0: cy - knob - 1, x1: cx + knob + 1, y1: cy + knob + 1 }, (ox, oy) =>
      `<circle cx="${num(cx - ox)}" cy="${num(cy - oy)}" r="${num(knob)}" fill="${fill}"/>`);
  }

  private spinner(r: Rect): void {
    const radius = Math.min(r.width, r.height) / 2 - this.dp(4);
    const cx = r.x + r.width / 2;
    const cy = r.y + r.height / 2;
    const w = this.dp(4);
    const reach = radius + w;
    const { surfaceVariant, primary } = this.input.palette;
    this.shape({ x0: cx - reach, y0: cy - reach, x1: cx + reach, y1: cy + reach }, (ox, oy) => {
      const x = num(cx - ox);
      const y = num(cy - oy);
      return `<circle cx="${x}" cy="${y}" r="${num(radius)}" fill="none" stroke="${surfaceVariant}" stroke-width="${w}"/>`
        + `<path d="M ${x} ${num(cy - oy - radius)} A ${num(radius)} ${num(radius)} 0 0 1 ${num(cx - ox + radius)} ${y}" fill="none" stroke="${primary}" stroke-width="${w}" stroke-linecap="round"/>`;
    });
  }
}

/**
 * The whole screen as one SVG document drawn from the same ops: the reference the tests
 * rasterize with librsvg, and a readable dump of a screen. Shapes sit at their origins
 * (integer translations, so glyphs land on the same pixels as in their tiles).
 */
export function paintToSvg(paint: Paint): string {
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${paint.width}" height="${paint.height}" ${paint.rootAttributes}>`];
  const clips = new Map<Rect, string>();
  for (const op of paint.ops) {
    let open = '';
    if (op.clip) {
      let id = clips.get(op.clip);
      if (!id) {
        id = `c${clips.size}`;
        clips.set(op.clip, id);
        const c = op.clip;
        out.push(`<clipPath id="${id}"><rect x="${c.x}" y="${c.y}" width="${c.width}" height="${c.height}"/></clipPath>`);
      }
      open = `<g clip-path="url(#${id})">`;
      out.push(open);
    }
    if (op.kind === 'fill') {
      const r = op.rect;
      out.push(`<rect x="${r.x}" y="${r.y}" width="${r.width}" height="${r.height}" fill="${op.color}"/>`);
    } else {
      out.push(`<svg x="${op.x}" y="${op.y}" width="${op.width}" height="${op.height}">${op.svg}</svg>`);
    }
    if (open) out.push('</g>');
  }
  out.push('</svg>');
  return out.join('');
}
