/**
 * The report builder's rules (spec 02 §3 entities, §4.4 behaviour, §4.5 totals, §5 validation; issue 13),
 * pure, used by the report builder service (which stores and prices reports) and its web remote (which
 * shows them as they are edited). Money is worked in whole cents so that sums never carry float errors.
 *
 * One module per concern: types (§3 entities), money, rates, totals, validation, crop (and paste), editing
 * (§4.4), sumInsured (issue 13), measured (issue 21: floor sizes measured on the imagery), reportState (a stored report priced:
 * the totals call, the PDF and a submission's RVETotal); internal holds the helpers they share and is not exported.
 */
export * from './types';
export * from './money';
export * from './rates';
export * from './totals';
export * from './validation';
export * from './crop';
export * from './editing';
export * from './sumInsured';
export * from './measured';
export * from './reportState';
