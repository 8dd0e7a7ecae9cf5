/** Issue 13, spec 02 §2.1: the report builder is for admins, SAVi operators and QC. The service checks the same. */
export const REPORT_BUILDER_ROLES = ['admin', 'saviOperator', 'saviQC'];
