import { installJsdomMapSupport, renderRemoteRoutes } from '@portal/web-kit/testing';
import { routes } from '../routes';

// The duplicate check's map (OpenLayers) in jsdom.
installJsdomMapSupport();
/** The remote's routes as the shell mounts them (web-kit's renderRemoteRoutes). */
export const renderRemote = (at: string) => renderRemoteRoutes(routes, at);
