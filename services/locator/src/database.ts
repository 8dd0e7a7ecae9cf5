import { openServiceDatabase } from '@portal/db';
import { TRIGRAM_SETTINGS } from './avs/parse';

/**
 * The locator's pool: short, index-driven reads (search as you type, reverse look-ups, tiles), with the
 * address service's fuzzy-matching thresholds (avs/parse.ts).
 */
export const openDatabase = (url: string) => openServiceDatabase(url, TRIGRAM_SETTINGS);

/**
 * The read pool (DATABASE_READ_URL, a replica): the same settings, named `locator-read` in
 * pg_stat_activity, and read-only on every connection — on a primary given as the read URL a write sent
 * there by mistake fails instead of passing unnoticed (a replica refuses it anyway).
 */
export const openReadDatabase = (url: string) =>
  openServiceDatabase(url, {
    ...TRIGRAM_SETTINGS,
    application_name: 'locator-read',
    default_transaction_read_only: 'on',
  });
