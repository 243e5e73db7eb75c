/** The benefits example of LANGUAGE.md (world, context, action and its golden test), shared by tests. */
export const LANGUAGE_BENEFITS_EXAMPLE = `world {
  org     "acme"
  domain  "hr.benefits"
  version "1.4.0"
}

context {
  supplied relationship:      "child" | "spouse" | "domestic_partner"
  supplied dependent_age:     int
  supplied full_time_student: bool?              // optional: may be absent (null)
  supplied documents:         list<string> = []
  system   request_time:      timestamp
  computed over_age:          bool = dependent_age >= 26
}

action add_dependent {
  aggregate winner_takes_all

  rule child_under_26 {
    outcome      GREEN
    severity     t2
    applies_when relationship == "child"
    when         not over_age
    reason       "Children under 26 qualify"
  }

  rule student_extension {
    outcome      YELLOW
    severity     t2
    applies_when relationship == "child"
    when         over_age and (full_time_student ?? false)
    reason       "Dependent is {dependent_age}; student status needs proof"
  }

  rule ineligible_over_age {
    outcome  RED
    severity t1
    when     relationship == "child" and over_age and not (full_time_student ?? false)
    reason   "Children aged 26 or more are not eligible"
  }

  on YELLOW {
    next_action      "gather_evidence_and_retry"
    required_output  ["enrollment_verification"]
    next_human_owner "benefits-review"
  }
  on RED { next_human_owner "benefits-escalations" }
}

test "a 27-year-old non-student child is blocked" {
  action  add_dependent
  context { relationship: "child", dependent_age: 27, documents: [] }
  expect  RED by ineligible_over_age
}
`;
