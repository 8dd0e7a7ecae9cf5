import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { harness } from './env';

/** A message as identity's folder mailer writes it (services/identity/src/mailer.ts). */
export interface Mail {
  from: string;
  sentAt: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  /** The first link of the message (a reset link, for the password mails). */
  link: string;
}

function mailsTo(address: string, since: number): Omit<Mail, 'link'>[] {
  let files: string[];
  try {
    files = readdirSync(harness().mailDir).filter((file) => file.endsWith('.json'));
  } catch {
    return []; // no mail sent yet: the folder appears with the first message
  }
  return files
    .map((file) => JSON.parse(readFileSync(join(harness().mailDir, file), 'utf8')) as Omit<Mail, 'link'>)
    .filter((mail) => mail.to.toLowerCase() === address.toLowerCase() && Date.parse(mail.sentAt) >= since);
}

/**
 * The newest mail to `to` (sent at or after `since`, when given), waiting up to `timeoutMs` for it to
 * arrive, with its first link.
 */
export async function readLatestMail(
  to: string,
  { since, timeoutMs = 10_000 }: { since?: Date; timeoutMs?: number } = {},
): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const newest = mailsTo(to, since?.getTime() ?? 0).sort(
      (a, b) => Date.parse(b.sentAt) - Date.parse(a.sentAt),
    )[0];
    if (newest) {
      const link = newest.links[0] ?? /https?:\/\/\S+/.exec(newest.text)?.[0];
      if (!link) throw new Error(`The mail '${newest.subject}' to ${to} has no link.`);
      return { ...newest, link };
    }
    if (Date.now() >= deadline)
      throw new Error(`No mail to ${to} in ${harness().mailDir} within ${timeoutMs / 1000} s.`);
    await sleep(200);
  }
}
