// The MUI data grid renders slowly in jsdom, and slower still when `npm test` runs several suites at once
// on a 2-core machine: Testing Library's default 1 s wait for `findBy*`/`waitFor` then fails for no
// reason in the code. The waits still end as soon as the element appears.
const { configure } = require('@testing-library/react');

configure({ asyncUtilTimeout: 10_000 });
