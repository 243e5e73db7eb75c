/**
 * The names a failure of stage 7 (docs/spec/skill-contract.md §2–§4) can carry whatever the skill
 * declares: the four checks, the universal invariants (§3.1) and prohibitions (§4.1), and what
 * the authority-boundary and competitor checks report (§4.3, §4.4). A test's `expect skill
 * validation failed "…"` names one of these or one of the skill's own invariants and
 * prohibitions; any other name could never be among the failures.
 */
export const SEC_CHECK_NAMES: readonly string[] = [
  'schema_valid',
  'invariants_satisfied',
  'authority_boundary_intact',
  'prohibited_fields_absent',
  'INV-001',
  'INV-002',
  'INV-003',
  'INV-004',
  'INV-005',
  'INV-006',
  'PROHIB-001',
  'PROHIB-002',
  'PROHIB-003',
  'PROHIB-004',
  'PROHIB-005',
  'PROHIB-COMPETITOR',
  'NAMES_OTHER_ACTION',
  'RANK-COMPARES',
  'RANK-SUPERLATIVE',
  'RANK-POSITION',
  'RANK-RANKS',
  'RANK-OTHERS',
];
