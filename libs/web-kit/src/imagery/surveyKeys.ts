/**
 * Which survey of a newest-first list a key moves to: arrows step one (Right/Down: older, Left/Up: newer),
 * Home the newest, End the oldest. Null for any other key, or when there is nothing to step to.
 */
export function surveyIndexAfterKey(count: number, index: number, key: string): number | null {
  if (count === 0) return null;
  const from = index < 0 ? 0 : index;
  let next: number;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      next = Math.min(count - 1, from + 1);
      break;
    case 'ArrowLeft':
    case 'ArrowUp':
      next = Math.max(0, from - 1);
      break;
    case 'Home':
      next = 0;
      break;
    case 'End':
      next = count - 1;
      break;
    default:
      return null;
  }
  return next === index ? null : next;
}
