import { API } from '@portal/contracts';
import { loadRemotesManifest } from './remotes/manifest';
import { registerPortalRemotes, startRemoteFor } from './remotes/federation';

// Asked for at once, while the shared modules and the app load, rather than after them:
// - the session (the first users/me query answers from this call: web-kit's adoptEarlySession);
const session = fetch(API.me, { credentials: 'same-origin', headers: { accept: 'application/json' } });
session.catch(() => undefined); // a failure is read (and the call made again) by the users/me query
// - the remotes list, then the remote that serves this page and its page's code (startRemoteFor).
const remotes = loadRemotesManifest().then((list) => {
  registerPortalRemotes(list);
  startRemoteFor(list, window.location.pathname);
  return list;
});

// The app starts behind a dynamic import so that Module Federation can settle the shared singletons
// (react, react-dom, the router, the store, MUI) before any of them runs.
void import('./bootstrap').then(({ start }) => start(remotes, session));
