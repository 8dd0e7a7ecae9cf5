import { openServiceDatabase } from '@portal/db';

/**
 * The address editor's pool: index-driven reads around a point and one-parcel edits (SHORT_STATEMENT_SETTINGS).
 */
export const openDatabase = (url: string) => openServiceDatabase(url);
