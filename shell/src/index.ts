import { loadRemotesManifest } from './remotes/manifest';

// Asked for while the shared modules and the app load, rather than after.
const remotes = loadRemotesManifest();

// The app starts behind a dynamic import so that Module Federation can settle the shared singletons
// (react, react-dom, the router, the store, MUI) before any of them runs.
void import('./bootstrap').then(({ start }) => start(remotes));
