import { openServiceDatabase } from '@portal/db';

/** The iris service's pool: one-row reads and writes plus the risk layers' indexed look-ups. */
export const openDatabase = (url: string) => openServiceDatabase(url);
