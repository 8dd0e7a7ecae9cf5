export * from './common';
export * from './auth';
export * from './services';
export * from './remotes';
export * from './paths';
export * from './admin';
export * from './geo';
