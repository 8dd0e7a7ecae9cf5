import type { MailMessage } from '@portal/server-kit';

// The mail writer moved to server-kit (the requests worker mails too); identity keeps its messages.
export { folderMailer, smtpMailer, type MailMessage, type Mailer } from '@portal/server-kit';

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
