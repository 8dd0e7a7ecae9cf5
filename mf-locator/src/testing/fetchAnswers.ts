// The fetch answers and the demo session users are web-kit's.
export { json, errorAnswer, answerFetch, callsTo, meAnswer, adminUser } from '@portal/web-kit/testing';
