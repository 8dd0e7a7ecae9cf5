export * from './texts';
export * from './validation';
export * from './access';
export * from './references';
export * from './requestWorkflow';
export * from './iris';
export * from './reportBuilder';
export * from './avsEditor';
