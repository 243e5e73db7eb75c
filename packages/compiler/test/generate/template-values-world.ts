/** A world whose reason interpolates timestamps and a duration (the date helpers of the module). */
export const TEMPLATE_VALUES_WORLD = `world { org "acme" domain "hr" version "1.0.0" }
context {
  supplied event_date: timestamp
  system   request_time: timestamp
}
action change_plan {
  rule late {
    outcome  YELLOW
    severity t2
    when     request_time - event_date > 0ms
    reason   "Event on {event_date} was {request_time - event_date} before {request_time}"
  }
}
`;
