import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
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

/** Sends through an SMTP server (SMTP_URL). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send({ to, subject, text, html }) {
      await transport.sendMail({ from, to, subject, text, html });
    },
  };
}

/**
 * Without SMTP, every message is written to `<dir>/<time>-<to>.json` and its links logged, so a person
 * running `npm start` (and the browser tests) can follow a reset link.
 */
export function folderMailer(dir: string, from: string, log: FastifyBaseLogger): Mailer {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const sentAt = new Date().toISOString();
      const file = join(
        dir,
        `${sentAt.replace(/[:.]/g, '-')}-${message.to.replace(/[^a-z0-9@._-]/gi, '_')}.json`,
      );
      await writeFile(file, JSON.stringify({ from, sentAt, ...message }, null, 2));
      log.info(
        { to: message.to, file, links: message.links },
        `mail written to ${file}: ${message.links.join(' ')}`,
      );
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function resetMail(to: string, name: string, link: string, ttlMinutes: number): MailMessage {
  const text = [
    `Hello ${name},`,
    '',
    'Someone (hopefully you) asked to reset the password of your Property Portal account.',
    `Open this link to choose a new password. It works once and expires in ${ttlMinutes} minutes:`,
    '',
    link,
    '',
    'If you did not ask for this, ignore this message: your password stays as it is.',
  ].join('\n');
  const html = `<p>Hello ${escapeHtml(name)},</p><p>Someone (hopefully you) asked to reset the password of your Property Portal account.</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a> — the link works once and expires in ${ttlMinutes} minutes.</p>
<p>If you did not ask for this, ignore this message: your password stays as it is.</p>`;
  return { to, subject: 'Reset your Property Portal password', text, html, links: [link] };
}
