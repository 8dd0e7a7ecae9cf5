import { measureKeyAction, PAN_SHIFT_FACTOR, PAN_STEP_PX } from './measureKeys';

describe('measureKeyAction', () => {
  it.each([
    [{ key: 'Enter' }, { type: 'finish' }],
    [{ key: 'Escape' }, { type: 'cancel' }],
    [{ key: 'Backspace' }, { type: 'undo' }],
    [{ key: 'z', ctrlKey: true }, { type: 'undo' }],
    [{ key: 'Z', metaKey: true }, { type: 'undo' }],
    [{ key: ' ' }, { type: 'addVertex' }],
    [{ key: 'ArrowLeft' }, { type: 'pan', dx: -PAN_STEP_PX, dy: 0 }],
    [{ key: 'ArrowDown' }, { type: 'pan', dx: 0, dy: PAN_STEP_PX }],
    [
      { key: 'ArrowUp', shiftKey: true },
      { type: 'pan', dx: 0, dy: -PAN_STEP_PX * PAN_SHIFT_FACTOR },
    ],
  ])('%j → %j', (event, action) => {
    expect(measureKeyAction(event)).toEqual(action);
  });

  it('leaves other keys, redo and browser shortcuts to the browser', () => {
    expect(measureKeyAction({ key: 'a' })).toBeNull();
    expect(measureKeyAction({ key: 'z', ctrlKey: true, shiftKey: true })).toBeNull();
    expect(measureKeyAction({ key: 'Enter', ctrlKey: true })).toBeNull();
    expect(measureKeyAction({ key: 'ArrowLeft', altKey: true })).toBeNull();
  });
});
