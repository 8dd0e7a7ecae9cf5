import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may be sent (issue 22): only to public addresses, unless the portal's setting allows
 * private ones (WEBHOOKS_ALLOW_PRIVATE_TARGETS, read by each service's config.ts; tests and a portal
 * inside a private network set it). Refused: unspecified, loopback, private (RFC 1918), CGNAT
 * (100.64/10), link-local (169.254/16, fe80::/10, where cloud metadata answers), unique-local (fc00::/7),
 * multicast, documentation, benchmarking and reserved ranges, and IPv6 forms that carry an IPv4 address
 * (mapped, NAT64) of those. services-admin checks at creation (a 400), the delivery worker at every
 * connection (DNS may have changed since): its lookup checks the very addresses it connects to.
 */
const REFUSED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  REFUSED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  REFUSED.addSubnet(net, bits, 'ipv6');

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True when webhooks may not be sent to `address` (an IP literal) without the setting. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return REFUSED.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return REFUSED.check(v4, 'ipv4');
    return REFUSED.check(address, 'ipv6');
  }
  return true; // not an address at all
}

export class WebhookTargetRefused extends Error {
  constructor(
    message: string,
    readonly host: string,
    readonly address: string | null,
  ) {
    super(message);
    this.name = 'WebhookTargetRefused';
  }
}

/** The host of a URL as DNS and the IP checks read it (IPv6 literals without their brackets). */
export function targetHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

const lookupAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

/**
 * Resolves the URL's host and refuses it when any of its addresses is private (an attacker's name may
 * answer a public and a private address). Answers the addresses.
 */
export async function checkWebhookTarget(url: URL, allowPrivate: boolean): Promise<string[]> {
  const host = targetHost(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookupAll(host)).map((entry) => entry.address);
    } catch {
      throw new WebhookTargetRefused(`The host ${host} does not resolve.`, host, null);
    }
  }
  if (!allowPrivate) {
    const refused = addresses.find(isPrivateAddress);
    if (refused !== undefined)
      throw new WebhookTargetRefused(
        `The host ${host} resolves to ${refused}, a private, loopback or link-local address.`,
        host,
        refused,
      );
  }
  return addresses;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request / https.request that refuses private addresses at connection time, so the
 * address checked is the address connected to (no window for DNS to answer differently in between).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (refused)
        return callback(
          new WebhookTargetRefused(
            `The host ${hostname} resolves to ${refused.address}, a private, loopback or link-local address.`,
            hostname,
            refused.address,
          ) as NodeJS.ErrnoException,
          [],
        );
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      callback(null, first.address, first.family);
    });
  };
}
