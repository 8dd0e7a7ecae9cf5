import { builtinCamera, pictureOffsetOfHeight } from '@portal/domain';
import {
  heightDraft,
  heightOfPicks,
  HEIGHT_STEP_PX,
  initialPicks,
  pickAt,
  picksAfterKey,
} from './obliqueHeight';

const camera = builtinCamera('n', 1024, 768);

describe('height picks', () => {
  it('reads a 7.5 m wall off the built-in oblique', () => {
    const offset = pictureOffsetOfHeight(camera, 7.5);
    let picks = pickAt(initialPicks(camera), [400, 500]);
    picks = pickAt(picks, [402, 500 - offset]);
    expect(heightOfPicks(picks, camera)).toEqual({ height: 7.5 });
  });

  it('picks by keyboard: arrows move the cross, Enter picks the base then the top', () => {
    let picks = initialPicks(camera);
    expect(picks.cross).toEqual([512, 384]);
    picks = picksAfterKey(picks, camera, 'Enter')!;
    expect(picks.base).toEqual([512, 384]);
    // Up 10 small steps and 2 big ones: 10 × 4 + 2 × 20 = 80 px.
    for (let i = 0; i < 10; i += 1) picks = picksAfterKey(picks, camera, 'ArrowUp')!;
    for (let i = 0; i < 2; i += 1) picks = picksAfterKey(picks, camera, 'ArrowUp', true)!;
    expect(picks.cross).toEqual([512, 384 - 80]);
    picks = picksAfterKey(picks, camera, ' ')!;
    expect(picks.top).toEqual([512, 304]);
    const expected = Math.round((80 / (Math.cos(Math.PI / 4) * (1024 / 110))) * 100) / 100;
    expect(heightOfPicks(picks, camera)).toEqual({ height: expected });
    expect(expected).toBeCloseTo(12.15, 2);
  });

  it('keeps the cross on the picture and ignores other keys', () => {
    let picks = { ...initialPicks(camera), cross: [2, 2] as [number, number] };
    picks = picksAfterKey(picks, camera, 'ArrowLeft')!;
    picks = picksAfterKey(picks, camera, 'ArrowUp')!;
    expect(picks.cross).toEqual([0, 0]);
    expect(picksAfterKey(picks, camera, 'a')).toBeNull();
    expect(HEIGHT_STEP_PX).toBe(4);
  });

  it('says why when the top is below the base, and Escape starts again', () => {
    let picks = pickAt(initialPicks(camera), [400, 500]);
    picks = pickAt(picks, [400, 520]);
    expect(heightOfPicks(picks, camera)).toEqual({ problem: expect.stringMatching(/above the base/) });
    picks = picksAfterKey(picks, camera, 'Escape')!;
    expect(picks.base).toBeNull();
    expect(heightOfPicks(picks, camera)).toBeNull();
  });

  it('a third pick is a new base', () => {
    let picks = pickAt(pickAt(initialPicks(camera), [1, 100]), [1, 50]);
    picks = pickAt(picks, [9, 9]);
    expect(picks).toMatchObject({ base: [9, 9], top: null });
  });

  it('makes a height draft with the picks and the camera', () => {
    const draft = heightDraft({ camera, base: [1, 100], top: [1, 50] }, 7.6, {
      point: { lat: -33.9, lng: 18.8 },
      surveyId: 4,
    });
    expect(draft).toMatchObject({
      kind: 'height',
      surveyId: 4,
      value: 7.6,
      unit: 'm',
      geometry: { type: 'Point', coordinates: [18.8, -33.9] },
      oblique: { camera, base: [1, 100], top: [1, 50] },
      text: '7.60 m',
    });
  });
});
