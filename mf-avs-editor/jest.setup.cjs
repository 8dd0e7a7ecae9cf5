// Testing Library's default 1 s wait is short when `npm test` runs several suites at once on a small
// machine; the waits still end as soon as the element appears.
const { configure } = require('@testing-library/react');

configure({ asyncUtilTimeout: 10_000 });
