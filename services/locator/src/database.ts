import { openServiceDatabase } from '@portal/db';
import { TRIGRAM_SETTINGS } from './avs/parse';

/**
 * The locator's pool: short, index-driven reads (search as you type, reverse look-ups, tiles), with the
 * address service's fuzzy-matching thresholds (avs/parse.ts).
 */
export const openDatabase = (url: string) => openServiceDatabase(url, TRIGRAM_SETTINGS);
