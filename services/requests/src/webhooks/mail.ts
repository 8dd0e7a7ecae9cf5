import type { DataSource } from 'typeorm';
import { escapeMailHtml, type MailMessage, type Mailer } from '@portal/server-kit';
import { endpointAdmins } from './store';

/** The notice that an endpoint was disabled, to each of its group's admins and the portal's administrators. */
export function endpointDisabledMail(
  to: { name: string; email: string },
  endpoint: { url: string; groupName: string; reason: string },
): MailMessage {
  const text = [
    `Hello ${to.name},`,
    '',
    `The Property Portal stopped sending webhooks to ${endpoint.url} (group ${endpoint.groupName}):`,
    endpoint.reason,
    '',
    'Events are no longer sent to it. Once the endpoint answers again, enable it in Services admin →',
    'Groups → Webhooks; the deliveries it missed can be sent again from its deliveries list.',
  ].join('\n');
  const html = `<p>Hello ${escapeMailHtml(to.name)},</p>
<p>The Property Portal stopped sending webhooks to <code>${escapeMailHtml(endpoint.url)}</code> (group ${escapeMailHtml(endpoint.groupName)}):
${escapeMailHtml(endpoint.reason)}</p>
<p>Events are no longer sent to it. Once the endpoint answers again, enable it in Services admin → Groups → Webhooks;
the deliveries it missed can be sent again from its deliveries list.</p>`;
  return { to: to.email, subject: 'A webhook endpoint was disabled', text, html, links: [] };
}

/** Tells the endpoint's admins; a mail that cannot be sent is logged, and does not fail the delivery. */
export async function tellEndpointDisabled(
  ds: DataSource,
  mailer: Mailer,
  endpointId: string,
  log: (msg: string, detail: Record<string, unknown>) => void,
): Promise<number> {
  const [endpoint] = (await ds.query(
    `SELECT e.url, e.group_id, coalesce(e.disabled_reason, '') AS reason, g.name AS group_name
       FROM webhooks.endpoints e JOIN identity.groups g ON g.id = e.group_id WHERE e.id = $1`,
    [endpointId],
  )) as { url: string; group_id: string; reason: string; group_name: string }[];
  if (!endpoint) return 0;
  const admins = await endpointAdmins(ds, endpoint.group_id);
  let sent = 0;
  for (const admin of admins) {
    try {
      await mailer.send(
        endpointDisabledMail(admin, {
          url: endpoint.url,
          groupName: endpoint.group_name,
          reason: endpoint.reason,
        }),
      );
      sent++;
    } catch (err) {
      log('webhook disabled mail not sent', { to: admin.email, err: (err as Error).message });
    }
  }
  return sent;
}
