import type { Rect } from '../../types.js';
import type { ContainerView, View } from './view.js';

/** A view placed on the screen, in device pixels. */
export interface Box {
  view: View;
  /** Where the view lies, before clipping by scrolling ancestors. */
  rect: Rect;
  /** The part of `rect` that is on screen; null when scrolled out of sight. */
  visible: Rect | null;
  children: Box[];
  /** Wrapped lines of a text view and the font size used to draw them. */
  lines?: string[];
  fontPx?: number;
  scroll?: { key: string; offset: number; max: number; viewport: number };
}

export interface LayoutContext {
  density: number;
  /** Stored offset of a scroll container; the layout clamps it to the content. */
  scrollOffset(key: string): number;
}

const DEFAULT_TEXT_SP = 16;
const LINE_HEIGHT = 1.4;
/** Average advance of DejaVu Sans relative to the font size, used to wrap text before drawing it. */
const CHAR_WIDTH_EM = 0.6;

export function intersect(a: Rect, b: Rect | null): Rect | null {
  if (!b) return null;
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const r = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return r > x && bottom > y ? { x, y, width: r - x, height: bottom - y } : null;
}

export function contains(r: Rect, x: number, y: number): boolean {
  return x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height;
}

export function wrapText(value: string, widthPx: number, fontPx: number): string[] {
  const perLine = Math.max(1, Math.floor(widthPx / (fontPx * CHAR_WIDTH_EM)));
  const lines: string[] = [];
  for (const paragraph of value.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (candidate.length <= perLine || !line) {
        line = candidate;
      } else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

export class LayoutEngine {
  constructor(private readonly ctx: LayoutContext) {}

  private px(dp: number): number {
    return Math.round(dp * this.ctx.density);
  }

  fontPx(view: View): number {
    return this.px(view.kind === 'text' && view.size ? view.size : DEFAULT_TEXT_SP);
  }

  /** Height a view wants at the given width. */
  measure(view: View, widthPx: number): number {
    if (view.height !== undefined) return this.px(view.height);
    switch (view.kind) {
      case 'text': {
        const font = this.fontPx(view);
        return wrapText(view.text, widthPx, font).length * Math.round(font * LINE_HEIGHT);
      }
      case 'field': return this.px(56);
      case 'button': return this.px(view.style === 'text' ? 40 : view.style === 'key' ? 44 : 48);
      case 'switch': return this.px(56);
      case 'spinner': return this.px(48);
      case 'image': return this.px(160);
      case 'spacer': return 0;
      case 'column': {
        const inner = widthPx - 2 * this.px(view.padX ?? view.pad ?? 0);
        const heights = view.children.map((c) => this.measure(c, this.childWidth(c, inner)));
        return this.sum(heights) + this.gaps(view) + 2 * this.px(view.pad ?? 0);
      }
      case 'row': {
        const widths = this.rowWidths(view, widthPx - 2 * this.px(view.padX ?? view.pad ?? 0));
        const heights = view.children.map((c, i) => this.measure(c, widths[i]));
        return Math.max(0, ...heights) + 2 * this.px(view.pad ?? 0);
      }
    }
  }

  layout(view: View, rect: Rect, clip: Rect | null): Box {
    const box: Box = { view, rect, visible: intersect(rect, clip), children: [] };
    if (view.kind === 'text') {
      box.fontPx = this.fontPx(view);
      box.lines = wrapText(view.text, rect.width, box.fontPx);
    } else if (view.kind === 'column') {
      this.layoutColumn(view, box, clip);
    } else if (view.kind === 'row') {
      this.layoutRow(view, box, clip);
    }
    return box;
  }

  private layoutColumn(view: ContainerView, box: Box, clip: Rect | null): void {
    const pad = this.px(view.pad ?? 0);
    const padX = this.px(view.padX ?? view.pad ?? 0);
    const inner = { x: box.rect.x + padX, y: box.rect.y + pad, width: box.rect.width - 2 * padX, height: box.rect.height - 2 * pad };
    const widths = view.children.map((c) => this.childWidth(c, inner.width));
    const heights = view.children.map((c, i) => (c.grow && !view.scrollKey ? 0 : this.measure(c, widths[i])));
    const used = this.sum(heights) + this.gaps(view);
    const growers = view.scrollKey ? [] : view.children.filter((c) => c.grow);
    let spare = Math.max(0, inner.height - used);
    if (growers.length) {
      // Integer shares so that adjacent boxes touch exactly.
      let left = spare;
      view.children.forEach((c, i) => {
        if (!c.grow) return;
        const share = Math.floor(spare / growers.length);
        heights[i] = growers[growers.length - 1] === c ? left : share;
        left -= heights[i];
      });
      spare = 0;
    }
    let y = inner.y + (view.justify === 'center' ? Math.floor(spare / 2) : view.justify === 'end' ? spare : 0);
    const childClip = view.scrollKey ? intersect(box.rect, clip) : clip;
    if (view.scrollKey) {
      const max = Math.max(0, used + 2 * pad - box.rect.height);
      const offset = Math.min(max, Math.max(0, this.ctx.scrollOffset(view.scrollKey)));
      box.scroll = { key: view.scrollKey, offset, max, viewport: box.rect.height };
      y -= offset;
    }
    const gap = this.px(view.gap ?? 0);
    view.children.forEach((child, i) => {
      const x = this.alignedX(inner.x, inner.width, widths[i], view.align);
      box.children.push(this.layout(child, { x, y, width: widths[i], height: heights[i] }, childClip));
      y += heights[i] + gap;
    });
  }

  private layoutRow(view: ContainerView, box: Box, clip: Rect | null): void {
    const pad = this.px(view.pad ?? 0);
    const padX = this.px(view.padX ?? view.pad ?? 0);
    const innerWidth = box.rect.width - 2 * padX;
    const innerHeight = box.rect.height - 2 * pad;
    const widths = this.rowWidths(view, innerWidth);
    const used = this.sum(widths) + this.gaps(view);
    const spare = Math.max(0, innerWidth - used);
    let x = box.rect.x + padX + (view.justify === 'center' ? Math.floor(spare / 2) : view.justify === 'end' ? spare : 0);
    const gap = this.px(view.gap ?? 0);
    view.children.forEach((child, i) => {
      const height = child.height !== undefined ? Math.min(innerHeight, this.px(child.height)) : innerHeight;
      const y = box.rect.y + pad + Math.floor((innerHeight - height) / 2);
      box.children.push(this.layout(child, { x, y, width: widths[i], height }, clip));
      x += widths[i] + gap;
    });
  }

  private rowWidths(view: ContainerView, innerWidth: number): number[] {
    const fixed = view.children.map((c) => (c.width !== undefined ? this.px(c.width) : 0));
    const growers = view.children.filter((c) => c.width === undefined);
    let left = Math.max(0, innerWidth - this.sum(fixed) - this.gaps(view));
    const share = growers.length ? Math.floor(left / growers.length) : 0;
    return view.children.map((c, i) => {
      if (c.width !== undefined) return fixed[i];
      const w = growers[growers.length - 1] === c ? left : share;
      left -= w;
      return w;
    });
  }

  private childWidth(child: View, innerWidth: number): number {
    return child.width !== undefined ? Math.min(innerWidth, this.px(child.width)) : innerWidth;
  }

  private alignedX(x: number, innerWidth: number, width: number, align: ContainerView['align']): number {
    if (align === 'center') return x + Math.floor((innerWidth - width) / 2);
    if (align === 'end') return x + innerWidth - width;
    return x;
  }

  private gaps(view: ContainerView): number {
    return Math.max(0, view.children.length - 1) * this.px(view.gap ?? 0);
  }

  private sum(values: number[]): number {
    return values.reduce((a, b) => a + b, 0);
  }
}
