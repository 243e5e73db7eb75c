/**
 * Selection requests for the fitness world (examples/fitness): 256 varied users and candidate
 * sets from a fixed seed, so every run and every server sees the same requests. Signals cover
 * fresh and engaged users, missing rest days (the rest-day guardrail) and hard streaks (the
 * intensity cap); candidates are 2–5 sessions and sometimes a rest day.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FITNESS_DIR = fileURLToPath(new URL('../../examples/fitness', import.meta.url));
export const FITNESS_ROUTING = { domain: 'fitness.coaching', world_model_version: '1.0.0', scenario: 'fitness_daily_session' };

/** The fitness world's files, `{ relative path: text }`. */
export function fitnessFiles() {
  const files = {};
  const walk = (dir, prefix) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.name.endsWith('.adec')) files[`${prefix}${entry.name}`] = readFileSync(join(dir, entry.name), 'utf8');
    }
  };
  walk(FITNESS_DIR, '');
  return files;
}

/** A small deterministic PRNG (mulberry32). */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SESSIONS = [
  ['HIIT Blast', 'hiit', 'high', 20],
  ['Tempo Run', 'running', 'moderate', 40],
  ['Morning Yoga', 'yoga', 'low', 30],
  ['Power Lift', 'strength', 'high', 45],
  ['Easy Spin', 'cycling', 'low', 25],
  ['Hill Repeats', 'running', 'high', 35],
];

/** The engine's part of 256 select requests (`{ scenario, signals, actions }`). */
export function selectionRequests(count = 256) {
  const next = random(0x5e1ec7);
  const pick = (n) => Math.floor(next() * n);
  return Array.from({ length: count }, (_, i) => {
    const offered = [...SESSIONS].sort(() => next() - 0.5).slice(0, 2 + pick(4));
    const actions = offered.map(([session_name, session_type, intensity, duration_minutes], j) => ({ action_id: `s${i}-${j}`, type: 'workout_session', session_name, session_type, intensity, duration_minutes }));
    // Always a rest day: whatever the guardrails do, one candidate stays eligible, so every
    // request is a selection (a 422 would stop the HTTP bench, which counts only answers).
    actions.push({ action_id: `rest-${i}`, type: 'rest_day', session_name: 'Active recovery walk' });
    return {
      scenario: FITNESS_ROUTING.scenario,
      signals: { sessions_last_7d: pick(8), rest_days_last_7d: pick(3), consecutive_high_intensity: pick(4) },
      actions,
    };
  });
}
