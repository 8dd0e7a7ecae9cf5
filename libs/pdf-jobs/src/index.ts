export * from './jobs';
export * from './browser';
export * from './worker';
export * from './text';
export * from './process';
export * from './page';
export * from './savi';
