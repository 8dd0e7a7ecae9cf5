// The fetch answers are web-kit's (answers by "METHOD /path", anything else a 404; later answers for the
// same key replace earlier ones). The session answers, which differ (an anonymous visitor's 401), are
// session.ts's.
export { json, errorAnswer, answerFetch, servicesAnswer } from '@portal/web-kit/testing';
