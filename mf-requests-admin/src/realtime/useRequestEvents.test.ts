/**
 * @jest-environment node
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import type * as SocketIoClient from 'socket.io-client';
import { retryRefusedHandshakes } from './useRequestEvents';

// jest.setup.cjs puts an emitter in socket.io-client's place for the screens; here it is the real client.
const { io } = jest.requireActual<typeof SocketIoClient>('socket.io-client');

// A real socket.io server that refuses the first handshakes (as services/requests does while its session
// check cannot reach Redis) and then lets the socket in.
describe('a refused realtime handshake', () => {
  it('is asked again after a pause until the server lets the socket in', async () => {
    const http = createServer();
    const server = new Server(http, { path: '/rt' });
    let refusals = 2;
    server.use((_socket, next) => (refusals-- > 0 ? next(new Error('Authentication required.')) : next()));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const socket = io(`http://127.0.0.1:${port}`, { path: '/rt', transports: ['websocket'] });
    const errors: string[] = [];
    socket.on('connect_error', (error) => errors.push(error.message));
    const stop = retryRefusedHandshakes(socket, { first: 20, most: 40 });
    try {
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      expect(errors).toEqual(['Authentication required.', 'Authentication required.']);
      expect(socket.connected).toBe(true);
    } finally {
      stop();
      socket.close();
      await server.close();
    }
  });

  it('is not asked again once the console has closed the socket', async () => {
    const http = createServer();
    const server = new Server(http, { path: '/rt' });
    let handshakes = 0;
    server.use((_socket, next) => {
      handshakes++;
      next(new Error('Authentication required.'));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const socket = io(`http://127.0.0.1:${port}`, { path: '/rt', transports: ['websocket'] });
    const stop = retryRefusedHandshakes(socket, { first: 20, most: 20 });
    await new Promise<void>((resolve) => socket.once('connect_error', () => resolve()));
    stop();
    socket.close();
    // Well past the pause: a retry, had one been left, would have made a second handshake.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(handshakes).toBe(1);
    await server.close();
  });
});
