/** What a key does while measuring on a map (MeasureToolbar). */
export type MeasureKeyAction =
  | { type: 'finish' }
  | { type: 'cancel' }
  | { type: 'undo' }
  | { type: 'addVertex' }
  | { type: 'pan'; dx: number; dy: number };

/** Pixels one arrow key moves the map; with Shift, PAN_STEP_PX × PAN_SHIFT_FACTOR. */
export const PAN_STEP_PX = 32;
export const PAN_SHIFT_FACTOR = 4;

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
  altKey?: boolean;
}

/**
 * The measuring keys: Enter finishes, Escape cancels, Backspace or Ctrl/⌘+Z undoes the last point, Space
 * adds a point at the centre cross, the arrows move the map under the cross (screen pixels, y down; Shift
 * moves further). Null for every other key, which stays with the browser.
 */
export function measureKeyAction(event: KeyLike): MeasureKeyAction | null {
  const step = event.shiftKey ? PAN_STEP_PX * PAN_SHIFT_FACTOR : PAN_STEP_PX;
  if (event.altKey) return null;
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z' && !event.shiftKey)
    return { type: 'undo' };
  if (event.ctrlKey || event.metaKey) return null;
  switch (event.key) {
    case 'Enter':
      return { type: 'finish' };
    case 'Escape':
      return { type: 'cancel' };
    case 'Backspace':
      return { type: 'undo' };
    case ' ':
    case 'Spacebar':
      return { type: 'addVertex' };
    case 'ArrowLeft':
      return { type: 'pan', dx: -step, dy: 0 };
    case 'ArrowRight':
      return { type: 'pan', dx: step, dy: 0 };
    case 'ArrowUp':
      return { type: 'pan', dx: 0, dy: -step };
    case 'ArrowDown':
      return { type: 'pan', dx: 0, dy: step };
    default:
      return null;
  }
}
