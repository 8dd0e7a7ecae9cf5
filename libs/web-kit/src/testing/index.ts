export * from './fetchAnswers';
export { installJsdomMapSupport } from '../map/testing/jsdomMapSupport';
export { renderRemoteRoutes } from './renderRemoteRoutes';
export * from './servicesAndReferences';
export * from './sessionUsers';
export * from './imagery';
