import { renderRemoteRoutes } from '@portal/web-kit/testing';
import { routes } from '../routes';

/** The remote's routes as the shell mounts them (web-kit's renderRemoteRoutes). */
export const renderRemote = (at: string) => renderRemoteRoutes(routes, at);
