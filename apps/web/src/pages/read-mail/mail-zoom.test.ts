import { describe, expect, it } from 'vitest';
import { clampScale, doubleTapScale, fitScale } from './mail-zoom';

describe('fitting a mail to the screen', () => {
  it('scales a 640 px newsletter into a 358 px frame, and leaves a narrow mail alone', () => {
    expect(fitScale(640, 358)).toBeCloseTo(358 / 640);
    expect(fitScale(358, 358)).toBe(1);
    expect(fitScale(300, 358)).toBe(1);
  });

  it('never shrinks past a readable floor, and zooms between fit and 3×', () => {
    expect(fitScale(20_000, 358)).toBe(0.2);
    expect(clampScale(0.1, 0.56)).toBe(0.56);
    expect(clampScale(5, 0.56)).toBe(3);
  });

  it('double tap goes from fitted to the mail’s own size and back', () => {
    expect(doubleTapScale(0.56, 0.56)).toBe(1);
    expect(doubleTapScale(1, 0.56)).toBe(0.56);
    expect(doubleTapScale(1, 1)).toBe(2);
    expect(doubleTapScale(2, 1)).toBe(1);
  });
});
