import type { Rect } from '../../types.js';
import type { Box } from './layout.js';
import type { Palette } from './theme.js';
import type { ButtonView, ColorName, ContainerView, FieldView, SwitchView } from './view.js';

export interface SvgInput {
  width: number;
  height: number;
  density: number;
  fontFamily: string;
  platform: 'android' | 'ios';
  palette: Palette;
  /** Bottom to top; a layer with a scrim dims everything below it. */
  layers: { box: Box; scrim?: boolean }[];
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Draws laid-out boxes. Every shape is drawn inside its box's rect so that element bounds and
 * screenshot pixels agree; scroll containers clip their children to what is visible.
 */
export class SvgRenderer {
  private out: string[] = [];
  private clipCount = 0;

  constructor(private readonly input: SvgInput) {}

  render(): string {
    const { width, height, palette } = this.input;
    this.out.push(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="${this.input.fontFamily}" shape-rendering="crispEdges" text-rendering="optimizeSpeed">`,
      `<rect width="${width}" height="${height}" fill="${palette.background}"/>`,
    );
    for (const layer of this.input.layers) {
      if (layer.scrim) this.out.push(`<rect width="${width}" height="${height}" fill="${palette.scrim}"/>`);
      this.box(layer.box);
    }
    this.out.push('</svg>');
    return this.out.join('');
  }

  private color(name: ColorName | undefined, fallback: ColorName): string {
    return this.input.palette[name ?? fallback];
  }

  private dp(v: number): number {
    return Math.round(v * this.input.density);
  }

  private rect(r: Rect, fill: string, radius = 0, extra = ''): void {
    const rx = radius ? ` rx="${Math.min(radius, r.height / 2, r.width / 2)}"` : '';
    this.out.push(`<rect x="${r.x}" y="${r.y}" width="${r.width}" height="${r.height}"${rx} fill="${fill}"${extra}/>`);
  }

  private text(
    lines: string[], r: Rect, fontPx: number, fill: string,
    opts: { align?: 'start' | 'center' | 'end'; bold?: boolean; inset?: number } = {},
  ): void {
    const lineHeight = Math.round(fontPx * 1.4);
    const top = r.y + (r.height - lineHeight * lines.length) / 2;
    const inset = opts.inset ?? 0;
    const anchor = opts.align === 'center' ? 'middle' : opts.align === 'end' ? 'end' : 'start';
    const x = opts.align === 'center' ? r.x + r.width / 2 : opts.align === 'end' ? r.x + r.width - inset : r.x + inset;
    const weight = opts.bold ? ' font-weight="bold"' : '';
    const tspans = lines
      .map((line, i) => `<tspan x="${x}" y="${Math.round(top + i * lineHeight + lineHeight / 2 + fontPx * 0.36)}">${escapeXml(line)}</tspan>`)
      .join('');
    this.out.push(`<text font-size="${fontPx}" fill="${fill}" text-anchor="${anchor}"${weight} xml:space="preserve">${tspans}</text>`);
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
      this.out.push(`<rect x="${r.x}" y="${r.y + r.height - 1}" width="${r.width}" height="1" fill="${palette[v.border]}"/>`);
    }
    if (box.scroll && box.visible) {
      const id = `c${this.clipCount++}`;
      const c = box.visible;
      this.out.push(`<clipPath id="${id}"><rect x="${c.x}" y="${c.y}" width="${c.width}" height="${c.height}"/></clipPath><g clip-path="url(#${id})">`);
      box.children.forEach((child) => this.box(child));
      this.out.push('</g>');
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
    this.text([value + (shown ? caret : '')], r, font, shown ? palette.onSurface : palette.muted, { inset: this.dp(16) });
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
    this.out.push(`<circle cx="${cx}" cy="${track.y + trackH / 2}" r="${knob}" fill="${v.checked ? palette.onPrimary : palette.outline}"/>`);
  }

  private spinner(r: Rect): void {
    const radius = Math.min(r.width, r.height) / 2 - this.dp(4);
    const cx = r.x + r.width / 2;
    const cy = r.y + r.height / 2;
    const w = this.dp(4);
    this.out.push(
      `<circle cx="${cx}" cy="${cy}" r="${radius}" fill="none" stroke="${this.input.palette.surfaceVariant}" stroke-width="${w}"/>`,
      `<path d="M ${cx} ${cy - radius} A ${radius} ${radius} 0 0 1 ${cx + radius} ${cy}" fill="none" stroke="${this.input.palette.primary}" stroke-width="${w}" stroke-linecap="round"/>`,
    );
  }
}
