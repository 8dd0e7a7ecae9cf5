import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/**
 * The portal's outgoing mail (identity's password resets, the requests worker's "webhook disabled"
 * notices): through SMTP when SMTP_URL is set, otherwise written to a folder (var/mail/) so that a person
 * running `npm start`, and the tests, can read what was sent.
 */
export interface MailMessage {
  /**
   * What the message is about, when it is one of a series that must not be sent twice (a notification's
   * id): the SMTP Message-ID is made from it (a receiving system de-duplicates on it) and the drop folder's
   * file name carries it (a second sending would show as a second file: the tests count them).
   */
  id?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Links the message carries, kept apart so the drop folder and logs can show them plainly. */
  links: string[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** What the folder mailer logs with (a Fastify logger, or a worker's JSON-line log). */
export interface MailLog {
  info(detail: object, message: string): void;
}

/** Sends through an SMTP server (SMTP_URL). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  const domain = from.match(/@([^>\s]+)/)?.[1] ?? 'portal.local';
  return {
    async send({ id, to, subject, text, html }) {
      const messageId = id ? `<${id}@${domain}>` : undefined;
      await transport.sendMail({ from, to, subject, text, html, messageId });
    },
  };
}

/**
 * Without SMTP, every message is written to `<dir>/<time>-[<id>-]<to>.json` and its links logged, so a person
 * running `npm start` (and the browser tests) can follow a reset link.
 */
export function folderMailer(dir: string, from: string, log: MailLog): Mailer {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const sentAt = new Date().toISOString();
      const to = message.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = join(
        dir,
        `${sentAt.replace(/[:.]/g, '-')}-${message.id ? `${message.id.replace(/[^a-z0-9-]/gi, '_')}-` : ''}${to}.json`,
      );
      // Written aside and renamed into place: a reader of the folder (a person, the browser tests) never
      // finds a half-written message under its final name.
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, JSON.stringify({ from, sentAt, ...message }, null, 2));
      await rename(partial, file);
      log.info(
        { to: message.to, file, links: message.links },
        `mail written to ${file}: ${message.links.join(' ')}`,
      );
    },
  };
}

/** SMTP when a URL is given, the folder otherwise. */
export function portalMailer(
  settings: { smtpUrl?: string; mailFrom: string; mailDir: string },
  log: MailLog,
): Mailer {
  return settings.smtpUrl
    ? smtpMailer(settings.smtpUrl, settings.mailFrom)
    : folderMailer(settings.mailDir, settings.mailFrom, log);
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Text for an HTML mail body. */
export const escapeMailHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
