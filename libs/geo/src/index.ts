export * from './text';
export * from './load/upsert';
