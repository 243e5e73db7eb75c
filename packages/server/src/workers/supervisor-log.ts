/**
 * The supervisor's log: JSON lines on standard output like its workers' (Fastify's logger is
 * pino too), so one stream holds the whole service's story and each line names its `pid`.
 */
import type { FastifyBaseLogger } from 'fastify';
import { pino, type LevelWithSilent } from 'pino';

export function supervisorLogger(level: LevelWithSilent): FastifyBaseLogger {
  return pino({ level });
}
