export * from './accounts';
export * from './resetTokens';
export * from './users';
