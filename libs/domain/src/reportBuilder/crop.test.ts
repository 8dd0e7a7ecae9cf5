/** Spec 02 §5: the image crop box and paste. */
import fc from 'fast-check';
import { CROP_SMALLEST, clampCropBox, cropBoxValid, isPastableImage } from './crop';

describe('spec 02 §5: image crop and paste', () => {
  const image = { width: 1600, height: 1200 };

  it('has 800 × 400 as the smallest box of ratio 2 that is at least 640 × 400', () => {
    expect(CROP_SMALLEST).toEqual({ width: 800, height: 400 });
  });

  it('accepts ratio 2 boxes of at least 640 × 400 inside the image', () => {
    expect(cropBoxValid({ x: 0, y: 0, width: 800, height: 400 }, image)).toBe(true);
    expect(cropBoxValid({ x: 0, y: 0, width: 801, height: 400 }, image)).toBe(true);
    expect(cropBoxValid({ x: 0, y: 0, width: 802, height: 400 }, image)).toBe(false);
    expect(cropBoxValid({ x: 0, y: 0, width: 798, height: 399 }, image)).toBe(false);
    expect(cropBoxValid({ x: 0, y: 0, width: 640, height: 400 }, image)).toBe(false);
    expect(cropBoxValid({ x: 800, y: 0, width: 800, height: 400 }, image)).toBe(true);
    expect(cropBoxValid({ x: 801, y: 0, width: 800, height: 400 }, image)).toBe(false);
    expect(cropBoxValid({ x: -1, y: 0, width: 800, height: 400 })).toBe(true);
    expect(cropBoxValid({ x: 0, y: 0, width: Number.NaN, height: 400 })).toBe(false);
  });

  it('clamps a box to the nearest valid one', () => {
    expect(clampCropBox({ x: 10, y: 20, width: 300, height: 300 }, image)).toEqual({
      x: 10,
      y: 20,
      width: 800,
      height: 400,
    });
    expect(clampCropBox({ x: 1500, y: 1100, width: 1001, height: 10 }, image)).toEqual({
      x: 600,
      y: 700,
      width: 1000,
      height: 500,
    });
    expect(clampCropBox({ x: 0, y: 0, width: 5000, height: 5000 }, { width: 2000, height: 450 })).toEqual({
      x: 0,
      y: 0,
      width: 900,
      height: 450,
    });
    expect(clampCropBox({ x: 0, y: 0, width: 800, height: 400 }, { width: 799, height: 600 })).toBeNull();
    expect(clampCropBox({ x: 0, y: 0, width: 800, height: 400 }, { width: 1000, height: 399 })).toBeNull();
  });

  it('pastes PNG only', () => {
    expect(isPastableImage('image/png')).toBe(true);
    expect(isPastableImage('IMAGE/PNG')).toBe(true);
    expect(isPastableImage('image/png; foo=bar')).toBe(true);
    expect(isPastableImage('image/jpeg')).toBe(false);
    expect(isPastableImage('image/apng')).toBe(false);
    expect(isPastableImage('')).toBe(false);
    expect(isPastableImage(null)).toBe(false);
  });
});

describe('properties', () => {
  it('a clamped crop box is always valid', () => {
    const dim = fc.integer({ min: 0, max: 5000 });
    fc.assert(
      fc.property(dim, dim, fc.record({ x: dim, y: dim, width: dim, height: dim }), (width, height, box) => {
        const clamped = clampCropBox(box, { width, height });
        if (width >= 800 && height >= 400) expect(cropBoxValid(clamped!, { width, height })).toBe(true);
        else expect(clamped).toBeNull();
      }),
    );
  });
});
