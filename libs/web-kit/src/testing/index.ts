export * from './fetchAnswers';
