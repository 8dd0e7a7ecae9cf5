import { openServiceDatabase } from '@portal/db';

/** services-admin's pool: short reads and small transactions (SHORT_STATEMENT_SETTINGS). */
export const openDatabase = (url: string) => openServiceDatabase(url);
