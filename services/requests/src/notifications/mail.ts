import { notificationLink, notificationTitle, type NotificationKind } from '@portal/contracts';
import { escapeMailHtml, type MailMessage } from '@portal/server-kit';
import type { MailTarget } from './store';

/** A line under the title saying what the person can do next, per kind. */
const NEXT_STEP: Readonly<Record<NotificationKind, string>> = {
  'report.ready': 'You can download the report from your requests list.',
  'request.queried': 'Please look at the request and answer the query.',
  'request.located': 'The address editor found its location; it is in your requests list.',
  'request.assigned': 'It is in the request console.',
  'request.late': 'It is past its ageing target in the request console.',
};

/**
 * The mail of a notification, plain text and HTML, with the portal's link (PUBLIC_URL) to the request's
 * page. Its id is the notification's, so the drop folder's file and an SMTP Message-ID name the one event.
 */
export function notificationMail(target: MailTarget, publicUrl: string): MailMessage {
  const title = notificationTitle(target.kind, target.grip_reference, target.data);
  const link = `${publicUrl}${notificationLink(target.kind, target.grip_reference)}`;
  const comment = target.kind === 'request.queried' && target.data.comment ? target.data.comment : null;
  const text = [
    `Hello ${target.name},`,
    '',
    title,
    ...(comment ? ['', `Comment: ${comment}`] : []),
    '',
    NEXT_STEP[target.kind],
    link,
    '',
    'You can choose which notifications you receive on your notification settings page:',
    `${publicUrl}/account/notifications`,
  ].join('\n');
  const html = `<p>Hello ${escapeMailHtml(target.name)},</p>
<p><strong>${escapeMailHtml(title)}</strong></p>
${comment ? `<p>Comment: ${escapeMailHtml(comment)}</p>\n` : ''}<p>${escapeMailHtml(NEXT_STEP[target.kind])}
<a href="${escapeMailHtml(link)}">Open ${escapeMailHtml(target.grip_reference ?? 'the request')} in the Property Portal</a></p>
<p style="color:#555">You can choose which notifications you receive on your
<a href="${escapeMailHtml(`${publicUrl}/account/notifications`)}">notification settings</a> page.</p>`;
  return {
    id: target.id,
    to: target.email,
    subject: title,
    text,
    html,
    links: [link],
  };
}
