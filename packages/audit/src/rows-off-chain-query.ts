/**
 * The query, the same text on both backends, behind `AuditStore.rowsOffChain`: per tenant, the
 * rows outside every chain that `verify` reports as BEYOND_HEAD (schema version 4).
 */

/**
 * Per tenant, the rows a writer set aside past its head, and the rows of a tenant that has no
 * chain at all: neither is part of a chain. The second part reads every record once, as `verify`
 * does anyway.
 */
export const ROWS_OFF_CHAIN = `
  SELECT tenant, COUNT(*) AS "rows", MIN(seq) AS "firstSeq" FROM (
    SELECT tenant, seq FROM decision_records_beyond_head
    UNION ALL
    SELECT r.tenant, r.seq FROM decision_records r WHERE NOT EXISTS (SELECT 1 FROM chains c WHERE c.tenant = r.tenant)
  ) AS off_chain
  GROUP BY tenant ORDER BY tenant`;
