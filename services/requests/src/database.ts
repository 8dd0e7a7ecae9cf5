import { openServiceDatabase } from '@portal/db';

/** The requests service's pool: one-row writes and index-driven reads (SHORT_STATEMENT_SETTINGS). */
export const openDatabase = (url: string) => openServiceDatabase(url);
