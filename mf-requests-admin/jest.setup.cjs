// The MUI data grid renders slowly in jsdom, and slower still when `npm test` runs several suites at once
// on a 2-core machine: Testing Library's default 1 s wait for `findBy*`/`waitFor` then fails for no
// reason in the code. The waits still end as soon as the element appears.
const { configure } = require('@testing-library/react');

configure({ asyncUtilTimeout: 10_000 });

// The console's realtime channel: socket.io-client, replaced by an emitter the tests drive (there is no
// server in jsdom).
jest.mock('socket.io-client', () => {
  const { EventEmitter } = require('node:events');
  const sockets = [];
  return {
    io: () => {
      const socket = new EventEmitter();
      socket.close = () => socket.removeAllListeners();
      sockets.push(socket);
      return socket;
    },
    __sockets: sockets,
  };
});
