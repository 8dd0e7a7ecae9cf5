import { openServiceDatabase } from '@portal/db';

/** The report builder's pool: one request's report read or saved at a time, under the request's row lock. */
export const openDatabase = (url: string) => openServiceDatabase(url);
