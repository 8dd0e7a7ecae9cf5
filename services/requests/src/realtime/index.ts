import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import {
  NOTIFICATION_SOCKET_EVENT,
  notificationChannel,
  type NotificationPushedEvent,
  REALTIME_EVENTS,
  REALTIME_PATH,
  requestCreatedChannel,
  requestUpdatedChannel,
  ROLE,
  SESSION_COOKIE,
  type RequestCreatedEvent,
  type RequestUpdatedEvent,
} from '@portal/contracts';
import { createRedis } from '@portal/server-kit';
import { consoleJobChannel } from '../jobs/consoleJobs';

/** The console's background jobs' progress, heard on consoleJobChannel, is sent to the job's user as this. */
export const CONSOLE_JOB_EVENT = 'console_job';

/** Rooms: every staff socket, and each user's own sockets. */
export const STAFF_ROOM = 'staff';
export const userRoom = (userId: string) => `user:${userId}`;
const STAFF_ROLES: readonly string[] = [ROLE.admin, ROLE.saviOperator, ROLE.saviQC];

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

/**
 * The request console's realtime channel (spec 02 §7.2 update_request / update_requests): socket.io on the
 * service's own HTTP server at REALTIME_PATH (the gateway proxies the websocket), signed in with the
 * session cookie. The Redis adapter joins the service's instances; each instance relays the changes it
 * hears on Redis to its own sockets only (io.local), so a change is sent once whatever the instance count.
 * A staff socket hears every change, a user's socket only changes to their own requests.
 */
export async function attachRealtime(
  app: FastifyInstance,
  redisUrl: string,
  redisPrefix: string,
): Promise<Server> {
  const channels = {
    updated: requestUpdatedChannel(redisPrefix),
    created: requestCreatedChannel(redisPrefix),
    job: consoleJobChannel(redisPrefix),
    notification: notificationChannel(redisPrefix),
  };
  const publisher = createRedis(redisUrl, 'requests-realtime-pub');
  const adapterSubscriber = publisher.duplicate();
  const changes = publisher.duplicate();
  const io = new Server(app.server, {
    path: REALTIME_PATH,
    serveClient: false,
    // Browsers come through the gateway on the portal's own origin; nothing cross-origin is allowed.
    cors: { origin: false },
    // The adapter's channels are under the portal's prefix too: another portal's sockets are not ours.
    adapter: createAdapter(publisher, adapterSubscriber, { key: `${redisPrefix}-realtime` }),
  });

  io.use(async (socket, next) => {
    const token = cookieValue(socket.handshake.headers.cookie, SESSION_COOKIE);
    const claims = token ? await app.verifySessionToken(token) : null;
    if (!claims) return next(new Error('Authentication required.'));
    socket.data.userId = claims.sub;
    socket.data.staff = claims.roles.some((role) => STAFF_ROLES.includes(role));
    next();
  });
  io.on('connection', (socket: Socket) => {
    void socket.join(userRoom(String(socket.data.userId)));
    if (socket.data.staff) void socket.join(STAFF_ROOM);
  });

  const rooms = (userIds: string[]) => [STAFF_ROOM, ...userIds.map(userRoom)];
  changes.on('message', (channel: string, message: string) => {
    try {
      if (channel === channels.updated) {
        const event = JSON.parse(message) as RequestUpdatedEvent;
        if (event.row)
          io.local.to(rooms(event.userIds)).emit(REALTIME_EVENTS.updateRequest, { row: event.row });
        else io.local.to(rooms(event.userIds)).emit(REALTIME_EVENTS.updateRequests, { ids: event.ids });
      } else if (channel === channels.created) {
        const event = JSON.parse(message) as RequestCreatedEvent;
        io.local.to(rooms([event.userId])).emit(REALTIME_EVENTS.updateRequests, { ids: [event.id] });
      } else if (channel === channels.job) {
        const event = JSON.parse(message) as { userId: string; job: unknown };
        io.local.to(userRoom(event.userId)).emit(CONSOLE_JOB_EVENT, event.job);
      } else if (channel === channels.notification) {
        // A person's notification (issue 24, pushed by the worker): to that person's sockets only.
        const event = JSON.parse(message) as NotificationPushedEvent;
        io.local.to(userRoom(event.userId)).emit(NOTIFICATION_SOCKET_EVENT, event.notification);
      }
    } catch (err) {
      app.log.error({ err, channel }, 'realtime event not relayed');
    }
  });
  await changes.subscribe(channels.updated, channels.created, channels.job, channels.notification);

  // Open websockets would hold the HTTP server's close: they are ended first (clients reconnect to
  // another instance), then the Redis clients once the server is down.
  app.addHook('preClose', async () => {
    io.local.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled([changes.quit(), adapterSubscriber.quit(), publisher.quit()]);
  });
  return io;
}
