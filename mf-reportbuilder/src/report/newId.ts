/** A new section's ID (the contract's SECTION_ID_PATTERN: letters, digits, '_', '-'). */
export function newSectionId(taken: readonly string[]): string {
  for (;;) {
    const id =
      typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
        ? crypto.randomUUID()
        : `s-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    if (!taken.includes(id)) return id;
  }
}
