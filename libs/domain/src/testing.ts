// Test builders of the domain's entities, for the tests of every project that works with them
// (`@portal/domain/testing`; never imported by running code).
export * from './reportBuilder/testing';
