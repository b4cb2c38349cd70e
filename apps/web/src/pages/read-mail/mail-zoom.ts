// Fit-to-width and zoom for a mail in its frame (issue 14, scope 1). The frame runs no
// script (sandbox without allow-scripts), so this page does the work on its document:
// a mail wider than the screen (a 640 px newsletter) is scaled down to fit, as Gmail and
// Apple Mail do; pinch and double-tap zoom it back up, panning sideways inside the frame.

/** The class the frame wraps the mail in; the server scopes the mail's style sheets to it (mail-css.ts). */
export const MAIL_SCOPE = 'mw-mail';
const MAX_SCALE = 3;
const DOUBLE_TAP_MS = 300;
const DOUBLE_TAP_PX = 30;

/** The scale that fits `natural` CSS pixels into `available`: never above 1, never absurdly small. */
export function fitScale(natural: number, available: number): number {
  if (natural <= available + 1 || available <= 0) return 1;
  return Math.max(0.2, available / natural);
}

/** Where a double tap goes: from fitted up to the mail's own size (or 2× when it already fits), and back. */
export function doubleTapScale(current: number, fit: number): number {
  if (current > fit * 1.02) return fit;
  return fit < 1 ? 1 : 2;
}

export const clampScale = (scale: number, fit: number) => Math.min(Math.max(scale, fit), Math.max(MAX_SCALE, fit));

/**
 * Controls one frame document. `onHeight` gets the height the frame must have to show
 * the whole mail at the current scale without scrolling vertically inside it.
 */
export class MailZoom {
  private fit = 1;
  private scale = 1;
  private natural = 0;
  private pinch: { distance: number; scale: number } | null = null;
  private lastTap = { at: 0, x: 0, y: 0 };

  constructor(private readonly doc: Document, private readonly onHeight: (px: number) => void) {
    const opts = { passive: false } as const;
    doc.addEventListener('touchstart', this.onTouchStart, opts);
    doc.addEventListener('touchmove', this.onTouchMove, opts);
    doc.addEventListener('touchend', this.onTouchEnd, opts);
    doc.addEventListener('dblclick', this.onDoubleClick);
  }

  private get wrapper(): HTMLElement | null {
    return this.doc.querySelector<HTMLElement>(`.${MAIL_SCOPE}`);
  }

  /** Measures the mail's own width again (after load, an image, a resize) and fits it. */
  refit(): void {
    const wrapper = this.wrapper;
    const view = this.doc.documentElement;
    if (!wrapper || !view) return;
    const wasFitted = this.scale <= this.fit * 1.02;
    wrapper.style.width = '';
    wrapper.style.transform = '';
    const available = view.clientWidth;
    // The wrapper is as wide as the frame; a wider table or image overflows it.
    this.natural = Math.max(wrapper.scrollWidth, Math.ceil(wrapper.getBoundingClientRect().width));
    this.fit = fitScale(this.natural, available);
    if (this.fit < 1) wrapper.style.width = `${this.natural}px`;
    this.apply(wasFitted ? this.fit : clampScale(this.scale, this.fit));
  }

  /** The scale now shown (1 = the mail's own size). */
  get current(): number {
    return this.scale;
  }

  get fitted(): number {
    return this.fit;
  }

  private apply(scale: number, anchor?: { x: number; y: number }): void {
    const wrapper = this.wrapper;
    const view = this.doc.documentElement;
    if (!wrapper || !view) return;
    const before = this.scale;
    this.scale = scale;
    wrapper.style.transform = scale === 1 ? '' : `scale(${scale})`;
    // A transform does not change layout: the body is given the scaled height, so the
    // frame is exactly as tall as what shows.
    const height = Math.ceil(wrapper.offsetHeight * scale);
    this.doc.body.style.height = `${height}px`;
    view.style.overflowX = scale > this.fit * 1.02 ? 'auto' : 'hidden';
    if (anchor) view.scrollLeft = Math.max(0, ((view.scrollLeft + anchor.x) / before) * scale - anchor.x);
    else if (scale <= this.fit) view.scrollLeft = 0;
    this.onHeight(height);
  }

  private onTouchStart = (event: TouchEvent) => {
    if (event.touches.length === 2) {
      this.pinch = { distance: distance(event.touches), scale: this.scale };
      event.preventDefault();
    }
  };

  private onTouchMove = (event: TouchEvent) => {
    if (!this.pinch || event.touches.length !== 2) return;
    event.preventDefault();
    const [a, b] = [event.touches[0]!, event.touches[1]!];
    const next = clampScale((this.pinch.scale * distance(event.touches)) / this.pinch.distance, this.fit);
    this.apply(next, { x: (a.clientX + b.clientX) / 2, y: (a.clientY + b.clientY) / 2 });
  };

  private onTouchEnd = (event: TouchEvent) => {
    if (this.pinch) {
      if (event.touches.length < 2) this.pinch = null;
      return;
    }
    const touch = event.changedTouches[0];
    if (!touch || event.touches.length > 0) return;
    const now = Date.now();
    const near = Math.abs(touch.clientX - this.lastTap.x) < DOUBLE_TAP_PX && Math.abs(touch.clientY - this.lastTap.y) < DOUBLE_TAP_PX;
    if (now - this.lastTap.at < DOUBLE_TAP_MS && near) {
      event.preventDefault();
      this.lastTap.at = 0;
      this.apply(doubleTapScale(this.scale, this.fit), { x: touch.clientX, y: touch.clientY });
      return;
    }
    this.lastTap = { at: now, x: touch.clientX, y: touch.clientY };
  };

  private onDoubleClick = (event: MouseEvent) => {
    // A double click also selects the word under it; the zoom is what was meant.
    this.doc.getSelection()?.removeAllRanges();
    this.apply(doubleTapScale(this.scale, this.fit), { x: event.clientX, y: event.clientY });
  };
}

function distance(touches: TouchList): number {
  const [a, b] = [touches[0]!, touches[1]!];
  return Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) || 1;
}
