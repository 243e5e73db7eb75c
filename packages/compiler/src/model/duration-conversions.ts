/**
 * The built-ins that convert between durations and numbers (language guide, "Durations"):
 * `in_days(d)` reads a duration as a number of days, `days(n)` makes a duration of n days; the
 * same for hours, minutes and seconds. The checker types them, codegen and the analyses'
 * interpreter compute them from this one table, so they cannot disagree on a unit.
 */
export const DURATION_UNIT_MS = { days: 86_400_000, hours: 3_600_000, minutes: 60_000, seconds: 1_000 } as const;

export type DurationUnit = keyof typeof DURATION_UNIT_MS;
export type DurationReader = `in_${DurationUnit}`;
export type DurationMaker = DurationUnit;

export interface DurationConversion {
  /** `read`: duration → float (in_days); `make`: number → duration, to the nearest millisecond (days). */
  readonly direction: 'read' | 'make';
  readonly unitMs: number;
}

export const DURATION_UNITS = Object.keys(DURATION_UNIT_MS) as readonly DurationUnit[];

/** The conversion a built-in name stands for, if it is one. */
export function durationConversion(name: string): DurationConversion | undefined {
  const read = name.startsWith('in_');
  const unit = read ? name.slice(3) : name;
  if (!Object.hasOwn(DURATION_UNIT_MS, unit)) return undefined;
  return { direction: read ? 'read' : 'make', unitMs: DURATION_UNIT_MS[unit as DurationUnit] };
}

/** A conversion applied to a number of milliseconds (read) or of units (make). */
export function convertDuration(conversion: DurationConversion, value: number): number {
  return conversion.direction === 'read' ? value / conversion.unitMs : Math.round(value * conversion.unitMs);
}
