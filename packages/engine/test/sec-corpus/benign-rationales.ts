/**
 * A corpus of benign skill replies: what a good product copywriter would write to explain the
 * *selected* action, and what no check of the Skill Execution Contract may flag (docs/spec/skill-contract.md: the
 * schema, the invariants, the authority boundary and the prohibitions; SECURITY.md "A skill that
 * tries to take authority"). It is the counterweight to the disguised violations: a checker
 * strict enough to catch every disguise must still pass every entry here.
 *
 * Every text names the selected action freely (its name, type, duration, intensity or topic),
 * in varied shapes, tenses, lengths and punctuation, with words that look risky to a naive
 * checker but are innocent ("the rest of your day", "better sleep", "best", "another great
 * week", "first session this week"). No text ranks or compares the options, names a rival
 * candidate, tells the user to do something else, gives medical or legal advice, presses,
 * frames negatively, echoes personal data or links elsewhere.
 *
 * Each entry carries the request under which its action is the one selected: the rivals offered
 * with it (never named by the text) and the signals that make it win under the scenario's
 * guardrails, objectives and tie-break (worked out below, per world).
 */

// ── The fitness example (examples/fitness) ─────────────────────────────────────────────────
//
// fitness_daily_session: engagement = clamp(sessions_last_7d / 5, 0, 1); completion (0.6) is
// 1 - engagement for a high-intensity session and 0.8 for anything else; momentum (0.4) is the
// same for every action; ties go to the shorter session, then the smaller action_id, and a rest
// day (no duration) sorts last. GR-REST-MIN forces the rest day when rest_days_last_7d < 1, and
// GR-INTENSITY-CAP blocks high intensity after two hard sessions in a row. So:
//   - NEW_USER (no session this week): the shortest high-intensity session wins (1 > 0.8);
//   - STEADY and FULL_WEEK (an engaged user): the shortest session that is not high wins;
//   - CAPPED (two hard sessions in a row): high is blocked, the shortest other session wins;
//   - ONE_SESSION (one session this week, 1 - 0.2 = 0.8): every session ties, the shortest wins.
// Every signal set has a rest day on record, so the rest-day guardrail never decides, and the
// selected action is always a workout_session, explained by the LLM skill
// fitness_session_rationale (a rest_day is explained by the template skill).

export interface FitnessSignals {
  readonly sessions_last_7d: number;
  readonly rest_days_last_7d: number;
  readonly consecutive_high_intensity: number;
}

export const NEW_USER: FitnessSignals = { sessions_last_7d: 0, rest_days_last_7d: 2, consecutive_high_intensity: 0 };
export const STEADY: FitnessSignals = { sessions_last_7d: 4, rest_days_last_7d: 2, consecutive_high_intensity: 0 };
export const FULL_WEEK: FitnessSignals = { sessions_last_7d: 6, rest_days_last_7d: 1, consecutive_high_intensity: 1 };
export const CAPPED: FitnessSignals = { sessions_last_7d: 0, rest_days_last_7d: 1, consecutive_high_intensity: 2 };
export const ONE_SESSION: FitnessSignals = { sessions_last_7d: 1, rest_days_last_7d: 3, consecutive_high_intensity: 0 };

export interface WorkoutSession {
  readonly action_id: string;
  readonly type: 'workout_session';
  readonly session_name: string;
  readonly session_type: string;
  readonly intensity: 'low' | 'moderate' | 'high';
  readonly duration_minutes: number;
}

export interface RestDay {
  readonly action_id: string;
  readonly type: 'rest_day';
  readonly session_name: string;
}

/** fitness_session_rationale's output (examples/fitness/skills/fitness_session_rationale.adec). */
export interface FitnessReply {
  readonly rationale: string;
  readonly encouragement?: string;
  readonly display_parameters?: { readonly tone: 'supportive' | 'energetic' | 'calm'; readonly highlight_recovery: boolean };
}

export interface FitnessEntry {
  readonly id: string;
  readonly signals: FitnessSignals;
  readonly selected: WorkoutSession;
  /** The other candidates of the request, 1 to 3; the reply names none of them. */
  readonly rivals: readonly (WorkoutSession | RestDay)[];
  readonly reply: FitnessReply;
}

function session(action_id: string, session_name: string, session_type: string, intensity: WorkoutSession['intensity'], duration_minutes: number): WorkoutSession {
  return { action_id, type: 'workout_session', session_name, session_type, intensity, duration_minutes };
}

function restDay(action_id: string, session_name: string): RestDay {
  return { action_id, type: 'rest_day', session_name };
}

const calm = (highlight_recovery = false) => ({ tone: 'calm' as const, highlight_recovery });
const supportive = (highlight_recovery = false) => ({ tone: 'supportive' as const, highlight_recovery });
const energetic = (highlight_recovery = false) => ({ tone: 'energetic' as const, highlight_recovery });

type Unnumbered<T> = Omit<T, 'id'>;

const FITNESS: readonly Unnumbered<FitnessEntry>[] = [
  // ── STEADY: an engaged user; the shortest session that is not high intensity ──
  {
    signals: STEADY,
    selected: session('yoga-30', 'Morning Yoga', 'yoga', 'low', 30),
    rivals: [session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20), session('run-40', 'Tempo Run', 'running', 'moderate', 40)],
    reply: { rationale: 'Morning Yoga is a calm 30 minutes to keep this week’s rhythm going — easy on the body, good for the mind.', encouragement: 'Roll out the mat and breathe.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('tempo-35', 'Tempo Run', 'running', 'moderate', 35),
    rivals: [session('spin-45', 'Power Spin', 'cycling', 'high', 45), session('pilates-50', 'Sunset Pilates', 'pilates', 'moderate', 50)],
    reply: { rationale: "Tempo Run: 35 minutes at a pace that feels comfortably hard. You've been consistent lately, and this keeps that going.", display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('cafe-15', 'Café Stretch', 'stretching', 'low', 15),
    rivals: [session('sprints-25', 'Hill Sprints', 'running', 'high', 25), session('swim-30', 'Lunch Swim', 'swimming', 'moderate', 30)],
    reply: { rationale: 'Café Stretch is 15 minutes of slow, easy stretching — short enough to fit between your coffee and the rest of your day.', encouragement: 'Loose shoulders, happy morning.' },
  },
  {
    signals: STEADY,
    selected: session('spin-easy-20', 'Easy Spin 20', 'cycling', 'low', 20),
    rivals: [session('circuit-30', 'Sweat Circuit', 'hiit', 'high', 30), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'A relaxed 20-minute ride: Easy Spin 20 keeps your legs turning without asking much of them.', display_parameters: calm(true) },
  },
  {
    signals: STEADY,
    selected: session('laps-30', 'Lap Swim', 'swimming', 'moderate', 30),
    rivals: [session('boxing-25', 'Boxing Rounds', 'boxing', 'high', 25), session('ride-60', 'Long Ride', 'cycling', 'moderate', 60)],
    reply: { rationale: 'Lap Swim today: 30 minutes of steady lengths. Find your stroke, count your breaths, and enjoy the water.', encouragement: 'See you at the deep end!', display_parameters: supportive() },
  },
  {
    signals: STEADY,
    selected: session('mobility-20', 'Mobility Flow', 'mobility', 'low', 20),
    rivals: [session('kb-30', 'Kettlebell Burn', 'strength', 'high', 30)],
    reply: { rationale: 'Mobility Flow loosens hips, shoulders and spine in 20 unhurried minutes. Nothing fancy — just good, honest movement.' },
  },
  {
    signals: STEADY,
    selected: session('reformer-45', 'Reformer Pilates', 'pilates', 'moderate', 45),
    rivals: [session('stairs-20', 'Stair Climber Intervals', 'hiit', 'high', 20), session('hike-90', 'Lake Loop Hike', 'hiking', 'moderate', 90)],
    reply: { rationale: 'Reformer Pilates builds core strength with control: 45 minutes of precise, steady work. Another great week is taking shape.', encouragement: 'Slow and controlled wins the day.', display_parameters: supportive() },
  },
  {
    signals: STEADY,
    selected: session('row-steady-25', 'Steady Row', 'rowing', 'moderate', 25),
    rivals: [session('row-sprints-15', 'Row Sprints', 'rowing', 'high', 15), session('yoga-40', 'Evening Yoga', 'yoga', 'low', 40)],
    reply: { rationale: '25 minutes of steady rowing: long strokes, even breathing, and a rhythm you can hold the whole way through.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('walk-30', 'Gentle Walk', 'walking', 'low', 30),
    rivals: [session('hiit-15', 'Quick HIIT', 'hiit', 'high', 15), restDay('rest-day', 'Rest & Recover')],
    reply: { rationale: 'Gentle Walk — half an hour outside at an easy pace. Fresh air, loose legs, and a clear head for the rest of your day.', encouragement: 'Comfy shoes on, phone in the pocket.', display_parameters: calm(true) },
  },
  {
    signals: STEADY,
    selected: session('core-30', 'Core Strength', 'strength', 'moderate', 30),
    rivals: [session('tabata-20', 'Tabata Tuesday', 'hiit', 'high', 20), session('long-run-75', 'Long Run', 'running', 'moderate', 75)],
    reply: { rationale: 'Core Strength is 30 focused minutes: planks, dead bugs and glute bridges, done slowly and with good form.' },
  },
  {
    signals: STEADY,
    selected: session('yin-45', 'Yin Yoga', 'yoga', 'low', 45),
    rivals: [session('spin-30', 'Spin Class', 'cycling', 'high', 30)],
    reply: { rationale: 'Yin Yoga means long, quiet holds — 45 minutes to unwind. A lovely way to set yourself up for better sleep tonight.', display_parameters: calm(true) },
  },
  {
    signals: STEADY,
    selected: session('hike-120', 'Sunday Hike', 'hiking', 'moderate', 120),
    rivals: [session('sprint-25', 'Track Sprints', 'running', 'high', 25), restDay('sofa-day', 'Sofa Day')],
    reply: { rationale: 'Sunday Hike: two hours on the trail at a conversational pace. Pack water, a snack, and something warm for the top.', encouragement: 'The view is waiting.', display_parameters: supportive() },
  },
  {
    signals: STEADY,
    selected: session('5k-easy-30', '5K Easy Run', 'running', 'low', 30),
    rivals: [session('intervals-35', 'Track Intervals', 'running', 'high', 35), session('pilates-45', 'Mat Pilates', 'pilates', 'moderate', 45)],
    reply: { rationale: '5K Easy Run — about 30 minutes at a pace where you could chat the whole way. Relaxed, steady, done.', encouragement: 'Easy miles are still miles.' },
  },
  {
    signals: STEADY,
    selected: session('foam-15', 'Foam Roll & Release', 'recovery', 'low', 15),
    rivals: [session('plyo-20', 'Plyo Power', 'plyometrics', 'high', 20)],
    reply: { rationale: 'Foam Roll & Release: 15 minutes of slow rolling for calves, quads and upper back. Simple, quiet and restorative.', display_parameters: calm(true) },
  },
  {
    signals: STEADY,
    selected: session('aqua-25', 'Aqua Jog', 'aqua jogging', 'low', 25),
    rivals: [session('bike-hills-40', 'Bike Hill Repeats', 'cycling', 'high', 40), session('lift-50', 'Full-Body Lift', 'strength', 'moderate', 50)],
    reply: { rationale: "Aqua Jog is running's gentler cousin: 25 minutes in the pool, moving your legs against the water's soft resistance." },
  },
  {
    signals: STEADY,
    selected: session('barre-40', 'Barre Basics', 'barre', 'moderate', 40),
    rivals: [session('hiit-25', 'Cardio Crush', 'hiit', 'high', 25)],
    reply: { rationale: 'Barre Basics brings small, precise movements and plenty of shaking muscles — 40 minutes that feel a lot like a dance class.', encouragement: 'Tiny pulses, big smiles!', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('taichi-30', 'Tai Chi in the Park', 'tai chi', 'low', 30),
    rivals: [session('bootcamp-45', 'Park Bootcamp', 'bootcamp', 'high', 45), session('walk-60', 'Brisk Walk', 'walking', 'moderate', 60)],
    reply: { rationale: "Tai Chi in the Park: 30 minutes of slow, flowing movement outdoors. It's the top of the morning, in the best sense.", display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('commute-25', 'Bike Commute', 'cycling', 'moderate', 25),
    rivals: [session('swim-sprint-30', 'Sprint Swim Sets', 'swimming', 'high', 30), session('yoga-35', 'Lunchtime Yoga', 'yoga', 'low', 35)],
    reply: { rationale: 'Your Bike Commute counts! 25 minutes of steady pedalling — training that fits right into the day you already have.', encouragement: 'Helmet on, lights on, off you go.' },
  },
  {
    signals: STEADY,
    selected: session('breathe-10', 'Stretch & Breathe', 'stretching', 'low', 10),
    rivals: [session('kick-45', 'Kickboxing', 'kickboxing', 'high', 45)],
    reply: { rationale: 'Just 10 minutes: Stretch & Breathe pairs gentle stretches with slow breathing. Small, but it adds up over a week.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('dance-30', 'Dance Cardio', 'dance', 'moderate', 30),
    rivals: [session('battle-12', 'Battle Ropes Blitz', 'hiit', 'high', 12), session('ride-45', 'Endurance Ride', 'cycling', 'moderate', 45)],
    reply: { rationale: 'Dance Cardio is 30 minutes of upbeat moves — no choreography skills needed, just music and a bit of floor space!', encouragement: 'Turn it up.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('hatha-60', 'Hatha Yoga', 'yoga', 'low', 60),
    rivals: [session('sprint-row-20', 'Rowing Sprints', 'rowing', 'high', 20)],
    reply: { rationale: 'An hour of Hatha Yoga: steady postures, long exhales and a proper savasana at the end. Time that belongs to you.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('nordic-45', 'Nordic Walk', 'walking', 'moderate', 45),
    rivals: [session('hill-sprint-20', 'Hill Sprints', 'running', 'high', 20), session('swim-50', 'Long Swim', 'swimming', 'moderate', 50)],
    reply: { rationale: 'Nordic Walk: poles in hand, 45 minutes of brisk walking that works your arms as much as your legs.', encouragement: 'Plant, push, glide.' },
  },
  {
    signals: STEADY,
    selected: session('ride-rec-30', 'Recovery Ride', 'cycling', 'low', 30),
    rivals: [session('vo2-40', 'VO2 Max Intervals', 'cycling', 'high', 40)],
    reply: { rationale: "Recovery Ride is 30 minutes of easy spinning in a light gear. If you can't hold a conversation, ease off a touch.", display_parameters: supportive(true) },
  },
  {
    signals: STEADY,
    selected: session('lower-40', 'Lower-Body Strength', 'strength', 'moderate', 40),
    rivals: [session('jump-15', 'Jump Squat Tabata', 'hiit', 'high', 15), restDay('rest-day', 'Day Off')],
    reply: { rationale: 'Lower-Body Strength — squats, lunges and hinges for 40 minutes. Take your time between sets; quality counts here.', display_parameters: supportive() },
  },
  {
    signals: STEADY,
    selected: session('mat-30', 'Pilates Mat', 'pilates', 'low', 30),
    rivals: [session('crossfit-35', 'WOD Express', 'crossfit', 'high', 35), session('hike-100', 'Ridge Hike', 'hiking', 'moderate', 100)],
    reply: { rationale: 'Pilates Mat: 30 minutes of breath-led core work on the floor. Slow is the point — every rep on purpose.' },
  },
  {
    signals: STEADY,
    selected: session('trail-50', 'Trail Run', 'running', 'moderate', 50),
    rivals: [session('tempo-55', 'Tempo Run', 'running', 'moderate', 55), session('fartlek-30', 'Fartlek Fun', 'running', 'high', 30)],
    reply: { rationale: 'Trail Run: 50 minutes on soft ground, with roots, rocks and views to keep things interesting. Run by feel today.', encouragement: 'Eyes up, quick feet.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('kayak-60', 'Kayak Paddle', 'paddling', 'moderate', 60),
    rivals: [session('erg-sprint-10', 'Erg Sprints', 'rowing', 'high', 10)],
    reply: { rationale: 'Kayak Paddle: an hour on the water, rotating from the torso with every stroke. Calm water, steady rhythm, big sky.' },
  },
  {
    signals: STEADY,
    selected: session('climb-90', 'Climbing Session', 'climbing', 'moderate', 90),
    rivals: [session('circuit-45', 'Metcon Circuit', 'hiit', 'high', 45), restDay('rest-day', 'Recovery Day')],
    reply: { rationale: 'Climbing Session at the wall: 90 minutes of problem-solving, with plenty of rest between climbs. Chalk up and have fun.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('sun-sal-12', 'Sun Salutations', 'yoga', 'low', 12),
    rivals: [session('yoga-power-45', 'Power Yoga', 'yoga', 'high', 45), session('yoga-yin-40', 'Yin Evening', 'yoga', 'low', 40)],
    reply: { rationale: 'Sun Salutations: 12 minutes of flowing yoga to greet the day. Five rounds, one breath per movement.', encouragement: 'Good morning, spine!', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('breathwork-10', 'Breathwork Reset', 'breathwork', 'low', 10),
    rivals: [session('spin-60', 'Spin Marathon', 'cycling', 'high', 60)],
    reply: { rationale: 'Breathwork Reset is ten quiet minutes of slow, steady breathing — a calm pause in a busy week.', display_parameters: calm(true) },
  },
  {
    signals: STEADY,
    selected: session('rope-15', 'Jump Rope Skills', 'jump rope', 'moderate', 15),
    rivals: [session('sled-20', 'Sled Pushes', 'strength', 'high', 20), session('row-30', 'Row & Core', 'rowing', 'moderate', 30)],
    reply: { rationale: 'Jump Rope Skills: 15 minutes of footwork drills — basic bounce, side-to-side, and a few crossovers if you feel playful.', encouragement: "Trip? Smile and go again." },
  },
  {
    signals: STEADY,
    selected: session('balance-20', 'Balance & Stability', 'mobility', 'low', 20),
    rivals: [session('hiit-30', 'HIIT 30', 'hiit', 'high', 30)],
    reply: { rationale: 'Balance & Stability trains the small muscles that keep you steady: single-leg holds, slow step-downs, 20 minutes in all.', display_parameters: supportive() },
  },
  {
    signals: STEADY,
    selected: session('open-water-40', 'Open-Water Swim', 'swimming', 'moderate', 40),
    rivals: [session('pool-sprint-25', 'Pool Sprints', 'swimming', 'high', 25), session('walk-50', 'Coastal Walk', 'walking', 'low', 50)],
    reply: { rationale: 'Open-Water Swim: 40 minutes in the lake, sighting every few strokes. Bring a bright cap and enjoy the quiet out there.', encouragement: 'Smooth strokes, easy breathing.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('hips-25', 'Hip Opener Flow', 'yoga', 'low', 25),
    rivals: [session('lift-heavy-45', 'Heavy Lifts', 'strength', 'high', 45)],
    reply: { rationale: 'Hip Opener Flow is 25 minutes of lunges, pigeon and slow twists — just right after a week of sitting and moving.' },
  },
  {
    signals: STEADY,
    selected: session('walk-talk-40', 'Walk & Talk', 'walking', 'low', 40),
    rivals: [session('box-30', 'Boxing Fit', 'boxing', 'high', 30), session('swim-45', 'Masters Swim', 'swimming', 'moderate', 45)],
    reply: { rationale: 'Walk & Talk — invite a friend along and go for 40 minutes. Good company makes the time fly by.', encouragement: 'Who will you call?', display_parameters: supportive() },
  },
  {
    signals: STEADY,
    selected: session('garden-45', 'Garden Workout', 'gardening', 'low', 45),
    rivals: [session('circuit-20', 'Express Circuit', 'hiit', 'high', 20)],
    reply: { rationale: 'Digging, raking and carrying: 45 minutes of gardening is real movement, with flowers to show for it at the end.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('zone2-60', 'Zone 2 Ride', 'cycling', 'moderate', 60),
    rivals: [session('crit-45', 'Crit Simulation', 'cycling', 'high', 45), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Zone 2 Ride: an hour at an easy, sustainable effort — the kind of riding that quietly builds a big aerobic base.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('kids-30', "Kids' Park Games", 'play', 'low', 30),
    rivals: [session('bootcamp-40', 'Bootcamp', 'bootcamp', 'high', 40)],
    reply: { rationale: "Kids' Park Games: 30 minutes of tag, frisbee and racing to the swings — movement that doesn't feel like training at all.", encouragement: 'Ice cream after? (Just saying.)', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('desk-5', 'Desk Break Stretch', 'stretching', 'low', 5),
    rivals: [session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20), session('yoga-30', 'Morning Yoga', 'yoga', 'low', 30)],
    reply: { rationale: 'Five minutes, one chair: Desk Break Stretch opens up your neck, wrists and back without leaving your desk.' },
  },
  {
    signals: STEADY,
    selected: session('wind-down-20', 'Evening Wind-Down', 'yoga', 'low', 20),
    rivals: [session('night-run-35', 'Night Intervals', 'running', 'high', 35)],
    reply: { rationale: 'Evening Wind-Down: 20 minutes of gentle yoga, lights low, phone away. A soft landing at the end of the day.', encouragement: 'Sleep well tonight.', display_parameters: calm(true) },
  },
  {
    signals: STEADY,
    selected: session('step-45', 'Step Class', 'aerobics', 'moderate', 45),
    rivals: [session('spin-50', 'Spin Inferno', 'cycling', 'high', 50), session('swim-60', 'Swim Endurance', 'swimming', 'moderate', 60)],
    reply: { rationale: "Step Class is back! 45 minutes of up, down, turn and repeat — it's cardio with a bit of a throwback feel.", display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('skate-30', 'Skate Session', 'skating', 'moderate', 30),
    rivals: [session('sprint-15', 'Sprint Drills', 'running', 'high', 15)],
    reply: { rationale: 'Skate Session: 30 minutes of cruising, carving and practising your turns. Pads on, and enjoy the glide.' },
  },
  {
    signals: STEADY,
    selected: session('tennis-60', 'Tennis Drills', 'tennis', 'moderate', 60),
    rivals: [session('hiit-40', 'Court HIIT', 'hiit', 'high', 40), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Tennis Drills: an hour of forehands, backhands and footwork on court. Rallying is the fun part — enjoy it.', encouragement: 'Watch the ball, loose grip.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('swim-rec-20', 'Recovery Swim', 'swimming', 'low', 20),
    rivals: [session('swim-hard-30', 'Threshold Swim', 'swimming', 'high', 30), session('swim-long-60', 'Distance Swim', 'swimming', 'moderate', 60)],
    reply: { rationale: 'Recovery Swim: 20 minutes of easy laps, mixing strokes as you like. The water does half the work for you.', display_parameters: calm(true) },
  },
  {
    signals: STEADY,
    selected: session('upper-35', 'Upper Body Strength', 'strength', 'moderate', 35),
    rivals: [session('burpee-10', 'Burpee Ladder', 'hiit', 'high', 10)],
    reply: { rationale: 'Upper Body Strength: push-ups, rows and presses for 35 minutes. Controlled reps, full range, steady breathing.' },
  },
  {
    signals: STEADY,
    selected: session('beach-40', 'Beach Walk', 'walking', 'low', 40),
    rivals: [session('sand-sprints-20', 'Sand Sprints', 'running', 'high', 20), session('surf-90', 'Surf Session', 'surfing', 'moderate', 90)],
    reply: { rationale: 'Beach Walk: 40 minutes along the shoreline, barefoot if you like. Salt air, soft sand and a slow pace.', encouragement: 'Look out for shells.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('vinyasa-50', 'Vinyasa Flow', 'yoga', 'moderate', 50),
    rivals: [session('hot-60', 'Hot Power Hour', 'yoga', 'high', 60)],
    reply: { rationale: 'Vinyasa Flow links breath and movement for 50 minutes: a warm, steady practice that leaves you feeling light.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('elliptical-30', 'Elliptical Cruise', 'cardio', 'moderate', 30),
    rivals: [session('treadmill-25', 'Treadmill Sprints', 'running', 'high', 25), session('row-45', 'Long Row', 'rowing', 'moderate', 45)],
    reply: { rationale: 'Elliptical Cruise: 30 minutes of smooth, low-impact cardio. Put on a podcast and settle into an even rhythm.' },
  },
  {
    signals: STEADY,
    selected: session('paddle-45', 'Stand-Up Paddle', 'paddleboarding', 'moderate', 45),
    rivals: [session('swim-int-30', 'Swim Intervals', 'swimming', 'high', 30)],
    reply: { rationale: 'Stand-Up Paddle works your balance and core at once — 45 minutes gliding over the water, knees soft, eyes ahead.', encouragement: 'Falling in counts as a swim!', display_parameters: energetic() },
  },

  // ── FULL_WEEK: six sessions this week; again the shortest session that is not high ──
  {
    signals: FULL_WEEK,
    selected: session('restorative-30', 'Restorative Yoga', 'yoga', 'low', 30),
    rivals: [session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20), session('run-40', 'Tempo Run', 'running', 'moderate', 40), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Six sessions in — what a week! Restorative Yoga is 30 minutes of bolsters, blankets and long, supported holds.', encouragement: 'You have earned this one.', display_parameters: calm(true) },
  },
  {
    signals: FULL_WEEK,
    selected: session('walk-35', 'Neighbourhood Walk', 'walking', 'low', 35),
    rivals: [session('spin-45', 'Power Spin', 'cycling', 'high', 45)],
    reply: { rationale: "Neighbourhood Walk: 35 easy minutes around the block. You've been busy this week, so today stays light and pleasant.", display_parameters: supportive(true) },
  },
  {
    signals: FULL_WEEK,
    selected: session('swim-easy-25', 'Easy Swim', 'swimming', 'low', 25),
    rivals: [session('sprints-20', 'Hill Sprints', 'running', 'high', 20), session('pilates-40', 'Core Pilates', 'pilates', 'moderate', 40)],
    reply: { rationale: 'Easy Swim: 25 minutes of relaxed freestyle and a little backstroke. A refreshing way to round off a full week.' },
  },
  {
    signals: FULL_WEEK,
    selected: session('stretch-20', 'Full-Body Stretch', 'stretching', 'low', 20),
    rivals: [session('kb-25', 'Kettlebell Swings', 'strength', 'high', 25)],
    reply: { rationale: 'Full-Body Stretch is 20 minutes, head to toe, nice and slow. After another great week, your body will enjoy it.', encouragement: 'Breathe into each stretch.', display_parameters: calm(true) },
  },
  {
    signals: FULL_WEEK,
    selected: session('cycle-40', 'Café Ride', 'cycling', 'low', 40),
    rivals: [session('crit-30', 'Criterium Practice', 'cycling', 'high', 30), restDay('sunday-off', 'Sunday Off')],
    reply: { rationale: 'Café Ride: 40 minutes of easy pedalling to a good coffee and back. The best rides sometimes end with a croissant.', display_parameters: supportive() },
  },
  {
    signals: FULL_WEEK,
    selected: session('pilates-35', 'Pilates Reset', 'pilates', 'low', 35),
    rivals: [session('hiit-15', 'Quick HIIT', 'hiit', 'high', 15)],
    reply: { rationale: "Pilates Reset: 35 minutes of slow, deliberate core work. It's a steady session to keep a strong week going." },
  },
  {
    signals: FULL_WEEK,
    selected: session('hike-75', 'Forest Hike', 'hiking', 'moderate', 75),
    rivals: [session('trail-sprints-30', 'Trail Sprints', 'running', 'high', 30), session('ride-90', 'Gravel Ride', 'cycling', 'moderate', 90)],
    reply: { rationale: 'Forest Hike: 75 minutes under the trees at whatever pace feels good. Listen for birds and breathe the green air.', encouragement: 'Pack some trail mix for the way.', display_parameters: calm() },
  },
  {
    signals: FULL_WEEK,
    selected: session('mobility-15', 'Morning Mobility', 'mobility', 'low', 15),
    rivals: [session('boxing-30', 'Boxing Rounds', 'boxing', 'high', 30)],
    reply: { rationale: 'Morning Mobility — 15 minutes of circles, rocks and reaches to wake up every joint before the day starts.', display_parameters: calm() },
  },
  {
    signals: FULL_WEEK,
    selected: session('aqua-40', 'Aqua Aerobics', 'aqua aerobics', 'moderate', 40),
    rivals: [session('swim-sprints-30', 'Sprint Sets', 'swimming', 'high', 30), session('yoga-60', 'Long Yoga', 'yoga', 'low', 60)],
    reply: { rationale: 'Aqua Aerobics: 40 minutes of music, splashing and surprisingly hard work — all of it easy on the joints.', encouragement: 'Bring a towel and a grin.', display_parameters: energetic() },
  },
  {
    signals: FULL_WEEK,
    selected: session('qigong-20', 'Qigong Basics', 'qigong', 'low', 20),
    rivals: [session('plyo-25', 'Plyo Circuit', 'plyometrics', 'high', 25)],
    reply: { rationale: 'Qigong Basics: 20 minutes of slow, rhythmic movement and breathing. Quiet, grounding, and a lovely close to the week.' },
  },

  // ── NEW_USER: no session this week yet; the shortest high-intensity session ──
  {
    signals: NEW_USER,
    selected: session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20),
    rivals: [session('run-40', 'Tempo Run', 'running', 'moderate', 40), session('yoga-30', 'Morning Yoga', 'yoga', 'low', 30)],
    reply: { rationale: 'HIIT Blast is 20 minutes of short, sharp intervals — a lively first session this week. Go hard, recover, repeat!', encouragement: "Let's get moving!", display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('spin-45', 'Power Spin', 'cycling', 'high', 45),
    rivals: [session('ride-rec-30', 'Recovery Ride', 'cycling', 'low', 30)],
    reply: { rationale: 'Power Spin: 45 minutes of climbs and sprints on the bike, set to a playlist that keeps your legs turning.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('hill-25', 'Hill Sprints', 'running', 'high', 25),
    rivals: [session('walk-40', 'Gentle Walk', 'walking', 'low', 40), session('swim-30', 'Lap Swim', 'swimming', 'moderate', 30)],
    reply: { rationale: 'Hill Sprints: 25 minutes, including a good warm-up, then short efforts uphill and an easy walk back down each time.', encouragement: 'Drive those arms.' },
  },
  {
    signals: NEW_USER,
    selected: session('boxing-30', 'Boxing Rounds', 'boxing', 'high', 30),
    rivals: [session('pilates-30', 'Pilates Mat', 'pilates', 'low', 30), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Boxing Rounds — 30 minutes of jabs, crosses and footwork, in three-minute rounds with a breather in between.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('tabata-16', 'Tabata Tuesday', 'hiit', 'high', 16),
    rivals: [session('tabata-24', 'Tabata Double', 'hiit', 'high', 24), session('yoga-20', 'Flow Yoga', 'yoga', 'low', 20)],
    reply: { rationale: 'Tabata Tuesday: 16 minutes of 20 seconds on, 10 seconds off. Short, intense, and over before you know it.', encouragement: 'Four rounds. You can do four rounds.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('kb-circuit-30', 'Kettlebell Circuit', 'strength', 'high', 30),
    rivals: [session('core-25', 'Core Basics', 'strength', 'moderate', 25)],
    reply: { rationale: 'Kettlebell Circuit: swings, goblet squats and presses, back to back for 30 minutes. Strong, simple and satisfying.' },
  },
  {
    signals: NEW_USER,
    selected: session('wod-21', 'The 21-15-9', 'crossfit', 'high', 21),
    rivals: [session('row-easy-30', 'Easy Row', 'rowing', 'low', 30), session('mobility-15', 'Mobility Flow', 'mobility', 'low', 15)],
    reply: { rationale: 'The 21-15-9 is a classic: thrusters and pull-ups for 21, then 15, then 9 reps. Set a steady pace and keep moving.', encouragement: 'Chalk, breathe, go.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('row-sprints-15', 'Row Sprints', 'rowing', 'high', 15),
    rivals: [session('row-steady-25', 'Steady Row', 'rowing', 'moderate', 25)],
    reply: { rationale: 'Row Sprints: 15 minutes of hard 250 m pieces with easy paddling between them. Short, punchy, satisfying.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('stairs-20', 'Stair Climber Intervals', 'hiit', 'high', 20),
    rivals: [session('walk-30', 'Treadmill Walk', 'walking', 'low', 30), session('stretch-10', 'Quick Stretch', 'stretching', 'low', 10)],
    reply: { rationale: 'Stair Climber Intervals: 20 minutes alternating fast climbs with slow, steady steps. A big effort in a small window.' },
  },
  {
    signals: NEW_USER,
    selected: session('swim-sprints-35', 'Sprint Swim Sets', 'swimming', 'high', 35),
    rivals: [session('swim-easy-40', 'Easy Swim', 'swimming', 'low', 40)],
    reply: { rationale: 'Sprint Swim Sets: 35 minutes with fast 50 m lengths and generous rest at the wall. Fast arms, calm breathing.', encouragement: 'Goggles on!', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('frank-40', "Frank's Bootcamp", 'bootcamp', 'high', 40),
    rivals: [session('walk-45', 'Park Walk', 'walking', 'low', 45), session('bootcamp-60', 'Bootcamp Plus', 'bootcamp', 'high', 60)],
    reply: { rationale: "Frank's Bootcamp: 40 minutes of stations in the park — bear crawls, sprints, and plenty of cheering from the group.", display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('plyo-20', 'Plyo Power', 'plyometrics', 'high', 20),
    rivals: [session('pilates-30', 'Sunset Pilates', 'pilates', 'moderate', 30)],
    reply: { rationale: 'Plyo Power is 20 springy minutes of box jumps, skater hops and bounds. Land softly and enjoy the lift-off!' },
  },
  {
    signals: NEW_USER,
    selected: session('ropes-12', 'Battle Ropes Blitz', 'hiit', 'high', 12),
    rivals: [session('hiit-30', 'HIIT 30', 'hiit', 'high', 30), session('walk-20', 'Lunch Walk', 'walking', 'low', 20)],
    reply: { rationale: 'Battle Ropes Blitz: 12 minutes, 30 seconds of waves, 30 seconds of recovery. Loud, fun, and over quickly.', encouragement: 'Make some waves!', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('burpee-10', 'Burpee Ladder', 'hiit', 'high', 10),
    rivals: [session('yoga-45', 'Yin Yoga', 'yoga', 'low', 45)],
    reply: { rationale: 'Burpee Ladder: one burpee in the first minute, two in the second, and so on for 10 minutes. Simple and honest.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('fartlek-30', 'Fartlek Fun', 'running', 'high', 30),
    rivals: [session('easy-run-35', 'Easy Run', 'running', 'low', 35), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Fartlek Fun: a 30-minute run where you surge to the next lamp post, then cruise, then surge again. Playful speed.', encouragement: 'Pick a landmark and go.' },
  },
  {
    signals: NEW_USER,
    selected: session('track-40', 'Track 400s', 'running', 'high', 40),
    rivals: [session('trail-50', 'Trail Run', 'running', 'moderate', 50)],
    reply: { rationale: 'Track 400s: eight laps at a strong effort, with a gentle 200 m jog between each. 40 minutes, warm-up included.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('mtb-60', 'Mountain Bike Climbs', 'cycling', 'high', 60),
    rivals: [session('ride-easy-45', 'Easy Ride', 'cycling', 'low', 45), session('hike-90', 'Valley Hike', 'hiking', 'moderate', 90)],
    reply: { rationale: 'Mountain Bike Climbs: an hour of steep singletrack, grinding up and flowing down. Low gears are your friends.', encouragement: 'Earn the descent.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('kick-45', 'Kickboxing', 'kickboxing', 'high', 45),
    rivals: [session('stretch-30', 'Evening Stretch', 'stretching', 'low', 30)],
    reply: { rationale: 'Kickboxing is 45 minutes of punches, kicks and footwork on the pads. A great way to leave the workday at the door.' },
  },
  {
    signals: NEW_USER,
    selected: session('bike-10', 'Assault Bike 10', 'hiit', 'high', 10),
    rivals: [session('bike-easy-30', 'Spin Easy', 'cycling', 'low', 30), session('row-20', 'Row Steady', 'rowing', 'moderate', 20)],
    reply: { rationale: 'Assault Bike 10: ten minutes, ten all-out sprints of 15 seconds, with easy pedalling in between. Short and sharp.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('circuit-30', 'Circuit 30/30', 'circuit training', 'high', 30),
    rivals: [session('yoga-35', 'Gentle Yoga', 'yoga', 'low', 35)],
    reply: { rationale: 'Circuit 30/30: 30 seconds of work, 30 seconds of rest, across eight stations for 30 minutes. Keep it moving!', encouragement: 'Next station, please.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('power-yoga-45', 'Power Yoga', 'yoga', 'high', 45),
    rivals: [session('hot-60', 'Hot Vinyasa', 'yoga', 'high', 60), session('yin-30', 'Yin Yoga', 'yoga', 'low', 30)],
    reply: { rationale: 'Power Yoga: 45 minutes of strong flows, long holds and a fair bit of sweat. Yoga with its sleeves rolled up.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('sled-20', 'Sled & Sprint', 'strength', 'high', 20),
    rivals: [session('walk-40', 'Long Walk', 'walking', 'low', 40)],
    reply: { rationale: 'Sled & Sprint: 20 minutes of heavy pushes and short sprints. A hard, honest workout to kick off the week.', encouragement: 'Push, breathe, push.' },
  },
  {
    signals: NEW_USER,
    selected: session('hill-bike-35', 'Hill Repeats', 'cycling', 'high', 35),
    rivals: [session('spin-45', 'Spin Endurance', 'cycling', 'moderate', 45), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Hill Repeats: 35 minutes of climbing the same hill hard and rolling back down easy. Steady effort, every single time.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('pyramid-25', 'Pyramid Intervals', 'running', 'high', 25),
    rivals: [session('jog-30', 'Easy Jog', 'running', 'low', 30)],
    reply: { rationale: 'Pyramid Intervals: 25 minutes, with a ladder of 1, 2, 3, 2 and 1 minutes of fast running in the middle. Easy jogging between.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('jump-squat-8', 'Jump Squat Tabata', 'hiit', 'high', 8),
    rivals: [session('stretch-15', 'Stretch & Breathe', 'stretching', 'low', 15), session('kb-20', 'Kettlebell Basics', 'strength', 'moderate', 20)],
    reply: { rationale: 'Jump Squat Tabata: eight rounds, 8 minutes, all legs. Brief, explosive, and done before the kettle boils.', encouragement: 'Eight rounds. Go!' },
  },
  {
    signals: NEW_USER,
    selected: session('swim-50s-30', 'Swim Sprint 50s', 'swimming', 'high', 30),
    rivals: [session('aqua-45', 'Aqua Aerobics', 'aqua aerobics', 'moderate', 45)],
    reply: { rationale: 'Swim Sprint 50s: after an easy warm-up, ten fast lengths with plenty of rest. 30 minutes, start to finish.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('trail-attack-40', 'Trail Hill Attack', 'trail running', 'high', 40),
    rivals: [session('hike-120', 'Long Hike', 'hiking', 'moderate', 120), session('yoga-20', 'Mountain Yoga', 'yoga', 'low', 20)],
    reply: { rationale: 'Trail Hill Attack: a 40-minute trail running session with three strong climbs. Power up, then enjoy the view.', encouragement: 'Short steps on the steep bits.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('hiit-25', 'Cardio Crush', 'hiit', 'high', 25),
    rivals: [session('barre-40', 'Barre Basics', 'barre', 'moderate', 40)],
    reply: { rationale: 'Cardio Crush: 25 minutes of high knees, mountain climbers and skaters. Energetic, sweaty, and a lot of fun.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('hyrox-50', 'Hyrox Prep', 'hyrox', 'high', 50),
    rivals: [session('hyrox-long-75', 'Hyrox Full Sim', 'hyrox', 'high', 75), session('walk-30', 'Cool-Down Walk', 'walking', 'low', 30)],
    reply: { rationale: 'Hyrox Prep: 50 minutes of running mixed with sled, wall balls and lunges. Bring water and a good playlist.' },
  },
  {
    signals: NEW_USER,
    selected: session('ski-erg-20', 'SkiErg Sprints', 'ski erg', 'high', 20),
    rivals: [session('row-easy-30', 'Easy Row', 'rowing', 'low', 30)],
    reply: { rationale: 'SkiErg Sprints: 20 minutes of full-body pulls, hard for 30 seconds and easy for 90. Arms, core and lungs, together.', encouragement: 'Hinge and pull!', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('dance-hiit-30', 'Dance HIIT', 'dance', 'high', 30),
    rivals: [session('dance-easy-45', 'Salsa Social', 'dance', 'moderate', 45)],
    reply: { rationale: 'Dance HIIT: 30 minutes of big moves and bigger music. Nobody is watching — dance like it, too!', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('spin-climb-40', 'Spin & Climb', 'cycling', 'high', 40),
    rivals: [session('pilates-50', 'Pilates Long Form', 'pilates', 'low', 50), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Spin & Climb: a 40-minute ride built around three long seated climbs. Turn the resistance up and settle in.', encouragement: 'Up we go.' },
  },
  {
    signals: NEW_USER,
    selected: session('emom-24', 'EMOM 24', 'strength', 'high', 24),
    rivals: [session('mobility-30', 'Mobility Session', 'mobility', 'low', 30)],
    reply: { rationale: 'EMOM 24: every minute on the minute for 24 minutes — swings, push-ups, squats, lunges. Rest whatever is left of each minute.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('stair-run-30', 'Stadium Stairs', 'running', 'high', 30),
    rivals: [session('track-easy-40', 'Track Easy Laps', 'running', 'low', 40)],
    reply: { rationale: 'Stadium Stairs: 30 minutes of climbing the bleachers, one step at a time, and walking down to recover. Big views at the top!', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('hiit-home-18', 'Living Room HIIT', 'hiit', 'high', 18),
    rivals: [session('stretch-15', 'Couch Stretch', 'stretching', 'low', 15), session('walk-30', 'Block Walk', 'walking', 'low', 30)],
    reply: { rationale: 'Living Room HIIT: 18 minutes, no equipment, just a bit of floor. Squats, jacks and planks in quick rounds.', encouragement: 'Push the coffee table aside.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('rugby-45', 'Rugby Conditioning', 'conditioning', 'high', 45),
    rivals: [session('swim-30', 'Easy Laps', 'swimming', 'low', 30)],
    reply: { rationale: 'Rugby Conditioning: 45 minutes of shuttles, tackle-bag drives and quick recoveries. Team spirit included.' },
  },
  {
    signals: NEW_USER,
    selected: session('mile-20', 'Mile Time Trial', 'running', 'high', 20),
    rivals: [session('run-long-60', 'Sunday Long Run', 'running', 'moderate', 60), session('walk-20', 'Warm Walk', 'walking', 'low', 20)],
    reply: { rationale: 'Mile Time Trial: a 20-minute session with a good warm-up and one honest mile. A fun benchmark to start from.', encouragement: 'Start steady, finish strong.', display_parameters: energetic() },
  },

  // ── CAPPED: two hard sessions in a row; high intensity is blocked, the shortest other session ──
  {
    signals: CAPPED,
    selected: session('run-40', 'Tempo Run', 'running', 'moderate', 40),
    rivals: [session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20)],
    reply: { rationale: 'Tempo Run keeps your legs moving at a steady, controlled pace for 40 minutes. A good day to find your rhythm.', display_parameters: supportive(true) },
  },
  {
    signals: CAPPED,
    selected: session('yoga-recover-30', 'Recovery Yoga', 'yoga', 'low', 30),
    rivals: [session('spin-45', 'Power Spin', 'cycling', 'high', 45), session('tempo-40', 'Tempo Run', 'running', 'moderate', 40)],
    reply: { rationale: 'After two big days, Recovery Yoga offers 30 minutes of slow stretching and deep breathing. Let your body catch up.', encouragement: 'Soft and slow today.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('walk-25', 'Easy Walk', 'walking', 'low', 25),
    rivals: [session('sprints-20', 'Hill Sprints', 'running', 'high', 20), restDay('rest-day', 'Rest Day')],
    reply: { rationale: "Easy Walk: 25 minutes outside at a gentle pace. It's a light day on purpose, and that's part of training too.", display_parameters: supportive(true) },
  },
  {
    signals: CAPPED,
    selected: session('swim-easy-30', 'Easy Swim', 'swimming', 'low', 30),
    rivals: [session('box-30', 'Boxing Rounds', 'boxing', 'high', 30)],
    reply: { rationale: 'Easy Swim: 30 minutes of unhurried laps. Water is a kind place for muscles that worked hard earlier this week.', encouragement: 'Float a little, too.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('mobility-20', 'Mobility Flow', 'mobility', 'low', 20),
    rivals: [session('kb-30', 'Kettlebell Circuit', 'strength', 'high', 30), session('pilates-40', 'Core Pilates', 'pilates', 'moderate', 40)],
    reply: { rationale: 'Mobility Flow is 20 minutes of gentle joint work: hips, ankles, shoulders. Today is about moving well, not moving hard.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('ride-easy-45', 'Easy Ride', 'cycling', 'low', 45),
    rivals: [session('vo2-40', 'VO2 Max Intervals', 'cycling', 'high', 40)],
    reply: { rationale: 'Easy Ride: 45 minutes of light spinning on flat roads. Coffee stop optional but encouraged.' },
  },
  {
    signals: CAPPED,
    selected: session('stretch-15', 'Evening Stretch', 'stretching', 'low', 15),
    rivals: [session('hiit-25', 'Cardio Crush', 'hiit', 'high', 25), session('walk-30', 'Dog Walk', 'walking', 'low', 30)],
    reply: { rationale: 'Evening Stretch: 15 calm minutes for hamstrings, hips and back. A gentle way to close a demanding few days.', encouragement: 'Long exhales.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('pilates-35', 'Pilates Mat', 'pilates', 'moderate', 35),
    rivals: [session('plyo-20', 'Plyo Power', 'plyometrics', 'high', 20)],
    reply: { rationale: 'Pilates Mat: 35 minutes of controlled, low-impact strength. It keeps the week moving while your legs recover.', display_parameters: supportive(true) },
  },
  {
    signals: CAPPED,
    selected: session('hike-60', 'Meadow Hike', 'hiking', 'low', 60),
    rivals: [session('trail-40', 'Trail Hill Attack', 'trail running', 'high', 40), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Meadow Hike: an hour through open fields at an easy pace. Bring a camera — the wildflowers are worth a stop or two.', encouragement: 'Enjoy the slow lane.' },
  },
  {
    signals: CAPPED,
    selected: session('yoga-nidra-20', 'Yoga Nidra', 'yoga', 'low', 20),
    rivals: [session('hot-60', 'Hot Power Hour', 'yoga', 'high', 60)],
    reply: { rationale: 'Yoga Nidra is 20 minutes lying down, guided through deep relaxation. Rest that still counts as practice.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('row-30', 'Row & Core', 'rowing', 'moderate', 30),
    rivals: [session('row-sprints-15', 'Row Sprints', 'rowing', 'high', 15)],
    reply: { rationale: 'Row & Core: 30 minutes split between easy rowing and floor work. Steady and balanced after a couple of big efforts.', display_parameters: supportive(true) },
  },
  {
    signals: CAPPED,
    selected: session('taichi-25', 'Tai Chi', 'tai chi', 'low', 25),
    rivals: [session('kick-45', 'Kickboxing', 'kickboxing', 'high', 45), session('swim-40', 'Swim Steady', 'swimming', 'moderate', 40)],
    reply: { rationale: 'Tai Chi: 25 minutes of slow, flowing forms. Balance, breath and focus — a graceful way to recover.', encouragement: 'Move like water.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('walk-40', 'Nature Walk', 'walking', 'low', 40),
    rivals: [session('bootcamp-40', 'Park Bootcamp', 'bootcamp', 'high', 40)],
    reply: { rationale: 'Nature Walk: 40 minutes on a quiet path. Slow down, look around, and let the hard work of the last two days settle in.' },
  },
  {
    signals: CAPPED,
    selected: session('foam-10', 'Foam Roller Reset', 'recovery', 'low', 10),
    rivals: [session('sled-20', 'Sled Pushes', 'strength', 'high', 20), session('stretch-20', 'Long Stretch', 'stretching', 'low', 20)],
    reply: { rationale: 'Foam Roller Reset: 10 minutes on the roller for calves, quads and upper back. Small effort, big relief.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('cycle-30', 'Spin Recovery', 'cycling', 'low', 30),
    rivals: [session('spin-45', 'Spin Inferno', 'cycling', 'high', 45)],
    reply: { rationale: 'Spin Recovery: 30 minutes at low resistance, cadence smooth, breathing easy. Fresh legs come from days like this.', encouragement: 'Light gear, easy spin.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('aqua-walk-20', 'Pool Walking', 'aqua walking', 'low', 20),
    rivals: [session('swim-sprints-30', 'Sprint Sets', 'swimming', 'high', 30)],
    reply: { rationale: 'Pool Walking: 20 minutes walking laps in chest-deep water. Gentle resistance, zero impact, and a calm mind.' },
  },
  {
    signals: CAPPED,
    selected: session('barre-30', 'Barre Gentle', 'barre', 'low', 30),
    rivals: [session('hiit-30', 'HIIT 30', 'hiit', 'high', 30), session('climb-90', 'Climbing Session', 'climbing', 'moderate', 90)],
    reply: { rationale: 'Barre Gentle keeps things light: 30 minutes of small movements at the barre, with lots of stretching between sets.', display_parameters: supportive(true) },
  },
  {
    signals: CAPPED,
    selected: session('golf-60', 'Nine Holes on Foot', 'golf', 'low', 60),
    rivals: [session('sprint-15', 'Sprint Drills', 'running', 'high', 15)],
    reply: { rationale: 'Nine Holes on Foot: about an hour of walking the course with your clubs. Fresh air, a few good shots, no rush.', encouragement: 'Fore!' },
  },
  {
    signals: CAPPED,
    selected: session('breathe-12', 'Box Breathing', 'breathwork', 'low', 12),
    rivals: [session('tabata-16', 'Tabata Tuesday', 'hiit', 'high', 16)],
    reply: { rationale: 'Box Breathing: 12 minutes of in for four, hold for four, out for four, hold for four. Calm, steady, and restoring.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('yoga-chair-15', 'Chair Yoga', 'yoga', 'low', 15),
    rivals: [session('yoga-power-45', 'Power Yoga', 'yoga', 'high', 45), session('yoga-flow-30', 'Vinyasa Flow', 'yoga', 'moderate', 30)],
    reply: { rationale: 'Chair Yoga — 15 minutes of twists, side bends and seated stretches. Yoga that meets you right where you are.', encouragement: 'Sit tall, breathe deep.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('paddle-40', 'Lake Paddle', 'paddling', 'low', 40),
    rivals: [session('swim-int-30', 'Swim Intervals', 'swimming', 'high', 30)],
    reply: { rationale: 'Lake Paddle: 40 minutes of easy strokes on calm water. Shoulders relaxed, the shoreline drifting by.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('walk-park-35', 'Sunset Stroll', 'walking', 'low', 35),
    rivals: [session('run-hills-30', 'Hill Reps', 'running', 'high', 30), restDay('rest-day', 'Rest Day')],
    reply: { rationale: "Sunset Stroll: 35 minutes as the light goes golden. It's an easy day by design, and a lovely one at that.", encouragement: 'Take a photo for later.' },
  },
  {
    signals: CAPPED,
    selected: session('pilates-reformer-50', "Reformer Pilates (Beginners')", 'pilates', 'moderate', 50),
    rivals: [session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20)],
    reply: { rationale: "Reformer Pilates (Beginners') is 50 minutes of springs, straps and careful control. A steady session that respects your recovery.", display_parameters: supportive(true) },
  },
  {
    signals: CAPPED,
    selected: session('stretch-partner-20', 'Partner Stretch', 'stretching', 'low', 20),
    rivals: [session('box-45', 'Boxing Sparring', 'boxing', 'high', 45)],
    reply: { rationale: 'Partner Stretch: 20 minutes of assisted stretches with someone you trust. Talk, laugh, and let the muscles lengthen.' },
  },
  {
    signals: CAPPED,
    selected: session('spa-swim-25', 'Spa Swim & Sauna', 'swimming', 'low', 25),
    rivals: [session('swim-sprint-35', 'Sprint Swim Sets', 'swimming', 'high', 35)],
    reply: { rationale: 'Spa Swim & Sauna: 25 minutes of easy laps, then some warmth to finish. A gentle, soothing day in the water.', encouragement: 'Enjoy the steam.', display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('ebike-45', 'E-Bike Tour', 'cycling', 'low', 45),
    rivals: [session('mtb-60', 'Mountain Bike Climbs', 'cycling', 'high', 60)],
    reply: { rationale: 'E-Bike Tour: 45 minutes exploring with a little help from the motor. Pedal as much as you feel like — that is the idea.', display_parameters: supportive(true) },
  },
  {
    signals: CAPPED,
    selected: session('hula-15', 'Hula Hoop Fun', 'play', 'low', 15),
    rivals: [session('burpee-10', 'Burpee Ladder', 'hiit', 'high', 10)],
    reply: { rationale: "Hula Hoop Fun: 15 minutes with a hoop and some music. Silly? A bit. Good for your core? Absolutely.", encouragement: 'Keep it spinning!', display_parameters: energetic() },
  },
  {
    signals: CAPPED,
    selected: session('yoga-restore-40', 'Rest & Restore Yoga', 'yoga', 'low', 40),
    rivals: [session('spin-50', 'Spin Inferno', 'cycling', 'high', 50)],
    reply: { rationale: 'Rest & Restore Yoga: 40 minutes of floor-based poses and soft music. Quiet time for body and mind alike.', display_parameters: calm(true) },
  },

  // ── ONE_SESSION: one session this week; every session scores alike, the shortest wins ──
  {
    signals: ONE_SESSION,
    selected: session('hiit-15', 'Quick HIIT', 'hiit', 'high', 15),
    rivals: [session('yoga-30', 'Morning Yoga', 'yoga', 'low', 30), session('run-40', 'Tempo Run', 'running', 'moderate', 40)],
    reply: { rationale: 'Quick HIIT: 15 minutes of fast intervals to build on the start you made this week. Brief, bright, done.', display_parameters: energetic() },
  },
  {
    signals: ONE_SESSION,
    selected: session('yoga-10', 'Mini Yoga', 'yoga', 'low', 10),
    rivals: [session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20)],
    reply: { rationale: 'Mini Yoga: 10 minutes, a handful of poses, one calm breath at a time. Your second session this week — nice going.', encouragement: 'Little and often.', display_parameters: calm() },
  },
  {
    signals: ONE_SESSION,
    selected: session('walk-20', 'Lunch Walk', 'walking', 'low', 20),
    rivals: [session('spin-45', 'Power Spin', 'cycling', 'high', 45), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Lunch Walk: 20 minutes around the block between meetings. Sunshine, fresh air, and a reset for the afternoon.' },
  },
  {
    signals: ONE_SESSION,
    selected: session('sprints-12', 'Sprint Starts', 'running', 'high', 12),
    rivals: [session('jog-30', 'Easy Jog', 'running', 'low', 30)],
    reply: { rationale: 'Sprint Starts: 12 minutes of explosive starts over 20 metres, walking back between each. Fast and fun.', encouragement: 'On your marks…', display_parameters: energetic() },
  },
  {
    signals: ONE_SESSION,
    selected: session('core-10', 'Core 10', 'strength', 'moderate', 10),
    rivals: [session('kb-25', 'Kettlebell Swings', 'strength', 'high', 25), session('pilates-30', 'Pilates Mat', 'pilates', 'low', 30)],
    reply: { rationale: 'Core 10: ten minutes of planks, hollow holds and slow crunches. Tiny session, solid work.', display_parameters: supportive() },
  },
  {
    signals: ONE_SESSION,
    selected: session('swim-20', 'Swim Drills', 'swimming', 'moderate', 20),
    rivals: [session('swim-40', 'Endurance Swim', 'swimming', 'moderate', 40)],
    reply: { rationale: 'Swim Drills: 20 minutes of catch-up, fingertip drag and side kicking. Good technique makes every length easier.' },
  },
  {
    signals: ONE_SESSION,
    selected: session('rope-8', 'Skipping Sprint', 'jump rope', 'high', 8),
    rivals: [session('stretch-15', 'Café Stretch', 'stretching', 'low', 15)],
    reply: { rationale: 'Skipping Sprint: 8 minutes with the jump rope, 40 seconds fast and 20 easy. A quick jolt of energy for the day!', display_parameters: energetic() },
  },
  {
    signals: ONE_SESSION,
    selected: session('stretch-12', 'Wake-Up Stretch', 'stretching', 'low', 12),
    rivals: [session('run-25', 'Morning Run', 'running', 'moderate', 25), session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20)],
    reply: { rationale: "Wake-Up Stretch: 12 minutes before breakfast to loosen up. It's the top of the morning, and your body will thank you.", encouragement: 'Reach for the ceiling!', display_parameters: calm() },
  },
  {
    signals: ONE_SESSION,
    selected: session('bike-25', 'Bike to the Market', 'cycling', 'low', 25),
    rivals: [session('spin-30', 'Spin Class', 'cycling', 'high', 30)],
    reply: { rationale: 'Bike to the Market: 25 easy minutes on two wheels, with fresh bread as the finish line. Errands and exercise in one.' },
  },
  {
    signals: ONE_SESSION,
    selected: session('dance-15', 'Kitchen Disco', 'dance', 'moderate', 15),
    rivals: [session('barre-45', 'Barre Basics', 'barre', 'moderate', 45)],
    reply: { rationale: 'Kitchen Disco: 15 minutes, three favourite songs, and all the moves you have. Joyful movement is real movement.', encouragement: 'Volume up!', display_parameters: energetic() },
  },
  {
    signals: ONE_SESSION,
    selected: session('yoga-eyes-5', 'Five-Minute Flow', 'yoga', 'low', 5),
    rivals: [session('yoga-45', 'Yoga Fundamentals', 'yoga', 'low', 45)],
    reply: { rationale: 'Five-Minute Flow: a short sequence of yoga poses you can do in your pyjamas. Small steps keep a habit alive.', display_parameters: calm() },
  },
  {
    signals: ONE_SESSION,
    selected: session('row-10', 'Row 2K', 'rowing', 'high', 10),
    rivals: [session('row-30', 'Easy Row', 'rowing', 'low', 30), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Row 2K: a solid effort over 2,000 metres, about 10 minutes including the warm-up. Strong legs, long strokes.', encouragement: 'Legs, body, arms.' },
  },
  {
    signals: ONE_SESSION,
    selected: session('stairs-10', 'Office Stairs', 'stair climbing', 'moderate', 10),
    rivals: [session('walk-30', 'Park Walk', 'walking', 'low', 30)],
    reply: { rationale: 'Office Stairs: 10 minutes up and down the stairwell at a steady pace. Great for the legs, and no gym bag needed.', display_parameters: supportive() },
  },
  {
    signals: ONE_SESSION,
    selected: session('pushup-7', '7-Minute Workout', 'circuit training', 'high', 7),
    rivals: [session('yoga-20', 'Flow Yoga', 'yoga', 'low', 20)],
    reply: { rationale: 'The 7-Minute Workout: twelve exercises, 30 seconds each, 10 seconds between them. Quick, complete, and done in a flash.', display_parameters: energetic() },
  },
  {
    signals: ONE_SESSION,
    selected: session('frisbee-30', 'Ultimate Frisbee', 'frisbee', 'moderate', 30),
    rivals: [session('run-45', 'Steady Run', 'running', 'moderate', 45)],
    reply: { rationale: 'Ultimate Frisbee: 30 minutes of running, jumping and catching with friends. Lots of laughing, some diving catches.', encouragement: 'Call for the disc!' },
  },
  {
    signals: ONE_SESSION,
    selected: session('walk-dog-15', 'Dog Walk Plus', 'walking', 'low', 15),
    rivals: [session('hiit-25', 'Cardio Crush', 'hiit', 'high', 25), session('swim-30', 'Lap Swim', 'swimming', 'moderate', 30)],
    reply: { rationale: "Dog Walk Plus: 15 minutes with the dog, adding a few brisk stretches along the way. Your four-legged coach approves.", display_parameters: supportive() },
  },
  {
    signals: ONE_SESSION,
    selected: session('shadow-10', 'Shadowboxing', 'boxing', 'high', 10),
    rivals: [session('box-30', 'Boxing Rounds', 'boxing', 'high', 30)],
    reply: { rationale: 'Shadowboxing: 10 minutes in front of a mirror, working combinations and footwork. Quick hands, light feet.', encouragement: 'Jab, jab, cross!', display_parameters: energetic() },
  },
  {
    signals: ONE_SESSION,
    selected: session('swing-15', 'Garden Swing Set', 'kettlebell', 'moderate', 15),
    rivals: [session('lift-45', 'Heavy Lifts', 'strength', 'high', 45)],
    reply: { rationale: 'Garden Swing Set: 15 minutes of kettlebell swings in the fresh air, in sets of 15. A strong, simple habit to build on.' },
  },

  // ── More of the same signal sets, with everyday phrases that look risky and are not ──
  {
    signals: STEADY,
    selected: session('form-run-30', 'Form Focus Run', 'running', 'moderate', 30),
    rivals: [session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20), session('run-40', 'Tempo Run', 'running', 'moderate', 40)],
    reply: { rationale: 'Form Focus Run: 30 easy minutes where the goal is relaxed shoulders and quick, light steps. Smooth form first; speed can wait.', display_parameters: supportive() },
  },
  {
    signals: STEADY,
    selected: session('nose-jog-25', 'Nose-Breathing Jog', 'running', 'low', 25),
    rivals: [session('sprints-20', 'Hill Sprints', 'running', 'high', 20)],
    reply: { rationale: 'Nose-Breathing Jog: 25 minutes, breathing in and out through the nose. It keeps the pace honest and calm.' },
  },
  {
    signals: STEADY,
    selected: session('spa-stretch-20', 'Spa Stretch', 'stretching', 'low', 20),
    rivals: [session('kb-30', 'Kettlebell Circuit', 'strength', 'high', 30), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Spa Stretch feels like a little luxury: 20 minutes of slow, warm stretching with soft music in the background.', display_parameters: calm(true) },
  },
  {
    signals: STEADY,
    selected: session('stroll-45', 'Sunday Stroll', 'walking', 'low', 45),
    rivals: [session('spin-45', 'Power Spin', 'cycling', 'high', 45)],
    reply: { rationale: 'Sunday Stroll: 45 minutes, no rush, no watch. Just you, the park, and whatever catches your eye.', encouragement: 'Wander well.' },
  },
  {
    signals: STEADY,
    selected: session('plein-air-40', 'Plein Air Walk', 'walking', 'low', 40),
    rivals: [session('boxing-30', 'Boxing Rounds', 'boxing', 'high', 30)],
    reply: { rationale: 'Plein Air Walk: a 40-minute walk to a good viewpoint, then some quiet sketching with watercolours before heading home.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('flamenco-60', 'Flamenco Class', 'dance', 'moderate', 60),
    rivals: [session('hiit-25', 'Cardio Crush', 'hiit', 'high', 25), session('salsa-75', 'Salsa Social', 'dance', 'moderate', 75)],
    reply: { rationale: 'Flamenco Class: an hour of footwork, rhythm and proud posture, straight from Andalusia. ¡Olé!', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('breath-lab-15', 'Breath Lab', 'breathwork', 'low', 15),
    rivals: [session('plyo-20', 'Plyo Power', 'plyometrics', 'high', 20)],
    reply: { rationale: 'Breath Lab: 15 minutes to get to know your breathing — slow counts, long exhales, and a calmer afternoon.' },
  },
  {
    signals: STEADY,
    selected: session('coast-50', 'Coastal Ride', 'cycling', 'moderate', 50),
    rivals: [session('crit-45', 'Crit Simulation', 'cycling', 'high', 45)],
    reply: { rationale: "Coastal Ride: 50 minutes along the water. Take the bends slowly and enjoy every bit of the coastline.", encouragement: 'Wind at your back, hopefully.', display_parameters: supportive() },
  },
  {
    signals: STEADY,
    selected: session('lake-loop-35', 'Lake Loop', 'walking', 'low', 35),
    rivals: [session('tabata-16', 'Tabata Tuesday', 'hiit', 'high', 16)],
    reply: { rationale: 'Lake Loop: get around the whole lake at an easy pace, well within your limits. About 35 minutes of fresh air.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('desk-stretch-10', 'Stretch Break', 'stretching', 'low', 10),
    rivals: [session('hiit-15', 'Quick HIIT', 'hiit', 'high', 15), session('walk-20', 'Lunch Walk', 'walking', 'low', 20)],
    reply: { rationale: 'Stretch Break: 10 minutes at your desk. Afterwards your neck and shoulders will likely feel looser.' },
  },
  {
    signals: STEADY,
    selected: session('yoga-basics-30', 'Yoga Basics', 'yoga', 'low', 30),
    rivals: [session('spin-30', 'Spin Class', 'cycling', 'high', 30)],
    reply: { rationale: 'Yoga Basics is one more step toward a steady habit: 30 minutes of simple poses and easy breathing.', display_parameters: calm() },
  },
  {
    signals: NEW_USER,
    selected: session('spin-blast-30', 'Spin Blast', 'cycling', 'high', 30),
    rivals: [session('ride-easy-45', 'Easy Ride', 'cycling', 'low', 45)],
    reply: { rationale: 'Spin Blast: 30 minutes on the bike with the music loud. Forget the clock and just ride!', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('halloween-40', 'Halloween Fun Run', 'running', 'low', 40),
    rivals: [session('sprints-25', 'Track Sprints', 'running', 'high', 25)],
    reply: { rationale: 'Halloween Fun Run: 5 km in costume, with candy stops for the kids along the route. About 40 minutes.', encouragement: 'Capes are optional.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('sunrise-30', 'Sunrise Run', 'running', 'moderate', 30),
    rivals: [session('intervals-35', 'Track Intervals', 'running', 'high', 35)],
    reply: { rationale: 'Sunrise Run: 30 minutes at first light. Join the early risers who get to watch the city wake up.' },
  },
  {
    signals: NEW_USER,
    selected: session('spin-rock-45', 'Rock Ride', 'cycling', 'high', 45),
    rivals: [session('yoga-30', 'Morning Yoga', 'yoga', 'low', 30)],
    reply: { rationale: 'Rock Ride: a 45-minute spin class set to an indie rock playlist. Climb on the chorus, sprint on the solos.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('early-swim-45', 'Early Bird Swim', 'swimming', 'moderate', 45),
    rivals: [session('swim-sprint-30', 'Sprint Swim Sets', 'swimming', 'high', 30)],
    reply: { rationale: 'Early Bird Swim: the lane is yours from 6.30 to 7.15, a calm 45 minutes before the pool gets busy.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('retreat-40', 'Weekend Retreat Flow', 'yoga', 'low', 40),
    rivals: [session('hot-60', 'Hot Power Hour', 'yoga', 'high', 60)],
    reply: { rationale: 'Weekend Retreat Flow: 40 minutes of slow yoga that feels like a little getaway, without packing a bag.', encouragement: 'No suitcase required.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('treadmill-walk-30', 'Incline Walk', 'walking', 'moderate', 30),
    rivals: [session('treadmill-sprint-20', 'Treadmill Sprints', 'running', 'high', 20)],
    reply: { rationale: 'Incline Walk: 30 minutes on the treadmill, tilted up a little. A steady climb with your favourite show on.' },
  },
  {
    signals: FULL_WEEK,
    selected: session('walk-cafe-30', 'Walk to the Café', 'walking', 'low', 30),
    rivals: [session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Walk to the Café: 30 gentle minutes there and back, with the best cappuccino in town at the halfway point.', display_parameters: supportive(true) },
  },
  {
    signals: FULL_WEEK,
    selected: session('yoga-sleep-20', 'Bedtime Yoga', 'yoga', 'low', 20),
    rivals: [session('run-night-30', 'Night Intervals', 'running', 'high', 30)],
    reply: { rationale: 'Bedtime Yoga: 20 minutes of gentle stretches in soft light, made for better sleep after a full week.', encouragement: 'Sweet dreams.', display_parameters: calm(true) },
  },
  {
    signals: ONE_SESSION,
    selected: session('hike-kids-15', "Little Legs' Nature Trail", 'hiking', 'low', 15),
    rivals: [session('hike-90', 'Summit Push', 'hiking', 'high', 90)],
    reply: { rationale: "Little Legs' Nature Trail: 15 minutes of hiking at toddler speed, stopping for every stick, stone and snail.", display_parameters: supportive() },
  },
  {
    signals: ONE_SESSION,
    selected: session('cold-dip-5', 'Cold Dip', 'cold water swimming', 'moderate', 5),
    rivals: [session('sauna-20', 'Sauna & Stretch', 'recovery', 'low', 20)],
    reply: { rationale: 'Cold Dip: five bracing minutes of cold water swimming with friends, then towels, laughter and hot tea.', encouragement: 'Brrr — and then glow!' },
  },
  {
    signals: CAPPED,
    selected: session('walk-museum-60', 'Museum Walk', 'walking', 'low', 60),
    rivals: [session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20)],
    reply: { rationale: "Museum Walk: an hour on your feet between galleries. You'll cover more ground than you think, at a gentle pace.", display_parameters: calm(true) },
  },
  {
    signals: CAPPED,
    selected: session('yoga-wall-25', 'Legs-Up-the-Wall Flow', 'yoga', 'low', 25),
    rivals: [session('spin-45', 'Power Spin', 'cycling', 'high', 45), session('run-40', 'Tempo Run', 'running', 'moderate', 40)],
    reply: { rationale: 'Legs-Up-the-Wall Flow: 25 minutes of supported yoga poses — the wall does the holding, you do the breathing.', display_parameters: calm(true) },
  },
  {
    signals: NEW_USER,
    selected: session('tri-brick-50', 'Triathlon Brick', 'triathlon', 'high', 50),
    rivals: [session('swim-60', 'Long Swim', 'swimming', 'moderate', 60)],
    reply: { rationale: 'Triathlon Brick: 35 minutes on the bike straight into a 15-minute run. Jelly legs are part of the fun.', encouragement: 'Quick transition!', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('hiit-stairs-14', 'Stairwell Sprints', 'hiit', 'high', 14),
    rivals: [session('walk-25', 'Office Walk', 'walking', 'low', 25)],
    reply: { rationale: "Stairwell Sprints: 14 minutes of fast climbs and slow descents. Today's office building is your gym!" },
  },
  {
    signals: STEADY,
    selected: session('kettle-25', 'Kettlebell Flow', 'kettlebell', 'moderate', 25),
    rivals: [session('kb-heavy-30', 'Kettlebell Heavy', 'kettlebell', 'high', 30)],
    reply: { rationale: 'Kettlebell Flow: 25 minutes of smooth transitions — swing, clean, press — at a weight that lets you move well.', display_parameters: supportive() },
  },
  {
    signals: STEADY,
    selected: session('walk-30', 'Gentle Walk', 'walking', 'low', 30),
    rivals: [restDay('rest', 'Active recovery walk')],
    reply: { rationale: 'Gentle Walk: 30 easy minutes outdoors, and a clear head for whatever the afternoon brings.' },
  },
  // ── Words of order, comparison and choice that describe the selected session, not the options ──
  {
    signals: STEADY,
    selected: session('pool-laps-30', 'Pool Laps', 'swimming', 'low', 30),
    rivals: [session('swim-sprint-45', 'Sprint Swim Sets', 'swimming', 'high', 45)],
    reply: { rationale: 'Pool Laps: 30 relaxed minutes. Count your lengths if you like — the first ten always seem to go by fastest.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('five-a-side-60', 'Five-a-Side Football', 'football', 'moderate', 60),
    rivals: [session('hiit-20', 'HIIT Blast', 'hiit', 'high', 20)],
    reply: { rationale: 'Five-a-Side Football: an hour of passing, running and, with luck, a goal or two. Keep score if you want to!', encouragement: 'Pass and move.', display_parameters: energetic() },
  },
  {
    signals: NEW_USER,
    selected: session('climb-challenge-40', 'Hill Climb Challenge', 'cycling', 'high', 40),
    rivals: [session('ride-easy-45', 'Easy Ride', 'cycling', 'low', 45), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Hill Climb Challenge: 40 minutes, one long climb, and a well-earned view from the top. Your first ride this week!', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('lakeside-40', 'Lakeside Walk', 'walking', 'low', 40),
    rivals: [session('boxing-30', 'Boxing Rounds', 'boxing', 'high', 30)],
    reply: { rationale: 'Lakeside Walk: 40 minutes out to the other side of the lake and back, at whatever pace feels right.' },
  },
  {
    signals: STEADY,
    selected: session('steps-25', 'Step Count Walk', 'walking', 'low', 25),
    rivals: [session('stairs-20', 'Stair Climber Intervals', 'hiit', 'high', 20)],
    reply: { rationale: 'Step Count Walk: 25 minutes, roughly 3,000 steps. More steps than yesterday is nice, but every walk counts.', display_parameters: supportive() },
  },
  {
    signals: CAPPED,
    selected: session('second-wind-15', 'Second Wind Stretch', 'stretching', 'low', 15),
    rivals: [session('hiit-25', 'Cardio Crush', 'hiit', 'high', 25)],
    reply: { rationale: 'Second Wind Stretch: 15 gentle minutes to catch your second wind after a couple of big days.', display_parameters: calm(true) },
  },
  {
    signals: STEADY,
    selected: session('hill-hike-60', 'Top of the Hill Hike', 'hiking', 'moderate', 60),
    rivals: [session('sprints-25', 'Hill Sprints', 'running', 'high', 25)],
    reply: { rationale: 'Top of the Hill Hike: an hour up a gentle slope, with a flask of tea waiting at the top.', encouragement: 'Enjoy the view up there.' },
  },
  {
    signals: STEADY,
    selected: session('pickup-45', 'Pick-Up Basketball', 'basketball', 'moderate', 45),
    rivals: [session('plyo-20', 'Plyo Power', 'plyometrics', 'high', 20)],
    reply: { rationale: 'Pick-Up Basketball: 45 minutes of friendly games. Pick a team, call your shots, and have fun out there.', display_parameters: energetic() },
  },
  {
    signals: FULL_WEEK,
    selected: session('best-foot-30', 'Best Foot Forward Walk', 'walking', 'low', 30),
    rivals: [session('spin-45', 'Power Spin', 'cycling', 'high', 45)],
    reply: { rationale: 'Best Foot Forward Walk: 30 easy minutes to round off a full week. One foot, then the other.', display_parameters: supportive(true) },
  },
  {
    signals: STEADY,
    selected: session('yoga-101-30', 'Yoga 101', 'yoga', 'low', 30),
    rivals: [session('hot-60', 'Hot Power Hour', 'yoga', 'high', 60)],
    reply: { rationale: "Yoga 101: 30 minutes of the basics — mountain pose, downward dog, child's pose. Step one on a long, friendly road." },
  },
  {
    signals: NEW_USER,
    selected: session('round-robin-30', 'Round Robin Circuit', 'circuit training', 'high', 30),
    rivals: [session('walk-40', 'Gentle Walk', 'walking', 'low', 40)],
    reply: { rationale: 'Round Robin Circuit: 30 minutes rotating through six stations. Every station gets its turn, and so do you.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('choice-yoga-30', 'Your-Choice Yoga', 'yoga', 'low', 30),
    rivals: [session('kb-30', 'Kettlebell Circuit', 'strength', 'high', 30)],
    reply: { rationale: 'Your-Choice Yoga: 30 minutes where you pick the poses from a simple menu. Your mat, your choice.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('interval-walk-30', 'Interval Walk', 'walking', 'moderate', 30),
    rivals: [session('treadmill-sprint-20', 'Treadmill Sprints', 'running', 'high', 20)],
    reply: { rationale: 'Interval Walk: 30 minutes, switching between brisk and easy every three minutes. The brisk bits are where the fun is.' },
  },
  {
    signals: STEADY,
    selected: session('easy-5k-30', 'Easy 5K', 'running', 'low', 30),
    rivals: [session('tempo-5k-25', 'Tempo 5K', 'running', 'high', 25)],
    reply: { rationale: "Easy 5K: about 30 minutes of gentle running. Slower than race pace, and that's exactly right for today.", display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('lsd-75', 'Long Slow Distance', 'running', 'low', 75),
    rivals: [session('intervals-35', 'Track Intervals', 'running', 'high', 35)],
    reply: { rationale: 'Long Slow Distance: 75 minutes at an easy, chatty pace — the longest run of your week, and the gentlest.', encouragement: 'Slow is smooth.' },
  },
  {
    signals: CAPPED,
    selected: session('light-lift-30', 'Lighter Day Lift', 'strength', 'low', 30),
    rivals: [session('lift-heavy-45', 'Heavy Lifts', 'strength', 'high', 45)],
    reply: { rationale: 'Lighter Day Lift: 30 minutes with lighter weights and more rest between sets. Easier on purpose, and still real work.', display_parameters: supportive(true) },
  },
  {
    signals: NEW_USER,
    selected: session('race-pace-35', 'Race Pace Intervals', 'running', 'high', 35),
    rivals: [session('jog-30', 'Easy Jog', 'running', 'low', 30)],
    reply: { rationale: 'Race Pace Intervals: 35 minutes with five efforts at goal pace. The last one is the hardest — and the most satisfying.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('cross-ride-40', 'Cross-Training Ride', 'cycling', 'moderate', 40),
    rivals: [session('hill-sprint-20', 'Hill Sprints', 'running', 'high', 20)],
    reply: { rationale: 'Cross-Training Ride: 40 steady minutes on the bike — a welcome change of scenery for running legs.' },
  },
  {
    signals: STEADY,
    selected: session('dance-beat-30', 'Dance Cardio', 'dance', 'moderate', 30),
    rivals: [session('zumba-45', 'Zumba Party', 'dance', 'high', 45)],
    reply: { rationale: 'Dance Cardio: 30 minutes of moving to the beat. Big arms, happy feet, and your favourite songs.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('early-swim-30', 'Early Swim', 'swimming', 'low', 30),
    rivals: [session('swim-int-30', 'Swim Intervals', 'swimming', 'high', 30), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Early Swim: 30 cool minutes in the pool to beat the heat before the day warms up.', encouragement: 'Sun cream for after.' },
  },
  {
    signals: STEADY,
    selected: session('quick-stretch-10', 'Quick Stretch', 'stretching', 'low', 10),
    rivals: [session('burpee-10', 'Burpee Ladder', 'hiit', 'high', 10)],
    reply: { rationale: 'Quick Stretch: 10 minutes, and an easy win for the day. Shoulders, hips, hamstrings, done.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('fun-run-30', 'Fun Run', 'running', 'low', 30),
    rivals: [session('tempo-35', 'Tempo Run', 'running', 'moderate', 35), session('sprints-20', 'Hill Sprints', 'running', 'high', 20)],
    reply: { rationale: 'Fun Run: 30 easy minutes. Rule number one: enjoy it. Rule number two: see rule number one.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('playlist-ride-40', 'Playlist Ride', 'cycling', 'moderate', 40),
    rivals: [session('spin-30', 'Spin Class', 'cycling', 'high', 30)],
    reply: { rationale: 'Playlist Ride: 40 minutes on the bike. Choose a playlist you love and let it set the cadence.' },
  },
  {
    signals: STEADY,
    selected: session('barefoot-20', 'Barefoot Yoga', 'yoga', 'low', 20),
    rivals: [session('hiit-15', 'Quick HIIT', 'hiit', 'high', 15), session('yoga-45', 'Yoga Fundamentals', 'yoga', 'low', 45)],
    reply: { rationale: 'Barefoot Yoga: 20 minutes on the grass. If you prefer, a mat works just as well.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('laps-easy-25', 'Easy Laps', 'swimming', 'low', 25),
    rivals: [session('swim-sprints-35', 'Sprint Swim Sets', 'swimming', 'high', 35)],
    reply: { rationale: 'Easy Laps: 25 minutes in the pool. It gets better every length as you loosen up.', encouragement: 'Long, smooth strokes.' },
  },
  {
    signals: STEADY,
    selected: session('lunch-walk-30', 'Lunchtime Walk', 'walking', 'low', 30),
    rivals: [session('boxing-25', 'Boxing Rounds', 'boxing', 'high', 25)],
    reply: { rationale: "Lunchtime Walk: 30 minutes outside, away from the screen. It's rather lovely out there today.", display_parameters: supportive() },
  },
  {
    signals: STEADY,
    selected: session('warm-jog-25', 'Warm-Up Jog', 'running', 'low', 25),
    rivals: [session('fartlek-30', 'Fartlek Fun', 'running', 'high', 30)],
    reply: { rationale: 'Warm-Up Jog: 25 minutes. The first five are the hardest; the rest is easy cruising.' },
  },
  {
    signals: STEADY,
    selected: session('downhill-40', 'Downhill Trail Run', 'running', 'moderate', 40),
    rivals: [session('trail-attack-40', 'Trail Hill Attack', 'trail running', 'high', 40)],
    reply: { rationale: 'Downhill Trail Run: 40 minutes on the trail, and the second half is mostly downhill. Enjoy the flow.', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('cake-ride-45', 'Cake Stop Ride', 'cycling', 'low', 45),
    rivals: [session('crit-30', 'Criterium Practice', 'cycling', 'high', 30)],
    reply: { rationale: 'Cake Stop Ride: 45 easy minutes, with plenty of cake options at the halfway café.', encouragement: 'Carrot cake counts as vegetables.' },
  },
  {
    signals: STEADY,
    selected: session('buddy-run-30', 'Buddy Run', 'running', 'low', 30),
    rivals: [session('track-40', 'Track 400s', 'running', 'high', 40), restDay('rest-day', 'Rest Day')],
    reply: { rationale: 'Buddy Run: 30 minutes side by side with a friend. Compare notes on the week as you go.', display_parameters: supportive() },
  },
  {
    signals: NEW_USER,
    selected: session('sprint-swim-20', 'Sprint Swim', 'swimming', 'high', 20),
    rivals: [session('walk-30', 'Lunch Walk', 'walking', 'low', 30)],
    reply: { rationale: 'Sprint Swim: 20 minutes of fast lengths. Your 1st swim this week — make a splash!', display_parameters: energetic() },
  },
  {
    signals: STEADY,
    selected: session('parkrun-30', 'Park Run', 'running', 'moderate', 30),
    rivals: [session('sprint-25', 'Track Sprints', 'running', 'high', 25)],
    reply: { rationale: 'Park Run: 5 km with a friendly crowd, about 30 minutes. Everyone who finishes is a winner.', encouragement: 'High-five a marshal.' },
  },
  {
    signals: STEADY,
    selected: session('reset-yoga-20', 'Sunday Reset Yoga', 'yoga', 'low', 20),
    rivals: [session('power-yoga-45', 'Power Yoga', 'yoga', 'high', 45)],
    reply: { rationale: 'Sunday Reset Yoga: 20 slow minutes to get ready for the week ahead.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('yoga-30', 'Morning Yoga', 'yoga', 'low', 30),
    rivals: [session('stretch-40', 'Evening Stretch', 'stretching', 'low', 40)],
    reply: { rationale: 'Morning Yoga: 30 minutes that carry you all the way to evening. Stretch, breathe, smile.', display_parameters: calm() },
  },
  {
    signals: STEADY,
    selected: session('box-light-30', 'Light Boxing', 'boxing', 'moderate', 30),
    rivals: [session('box-spar-45', 'Boxing Sparring', 'boxing', 'high', 45)],
    reply: { rationale: 'Light Boxing: 30 minutes on the pads. Hit your marks, find your rhythm, have fun.' },
  },
  {
    signals: STEADY,
    selected: session('tennis-match-60', 'Tennis Match', 'tennis', 'moderate', 60),
    rivals: [session('court-hiit-40', 'Court HIIT', 'hiit', 'high', 40)],
    reply: { rationale: 'Tennis Match: an hour on court with a friend. Play for fun and let the points take care of themselves.', display_parameters: energetic() },
  },
  {
    signals: CAPPED,
    selected: session('golf-walk-60', 'Walking Golf', 'golf', 'low', 60),
    rivals: [session('sprint-15', 'Sprint Drills', 'running', 'high', 15)],
    reply: { rationale: 'Walking Golf: nine holes on foot, about an hour. Par is a suggestion today.', display_parameters: calm(true) },
  },
];

// ── The SEC lab world (packages/engine/test/worlds/sec-lab) ─────────────────────────────────────────
//
// lab_pick: a note scores priority / 10, a quiet action 0.15; ties go to the smaller action_id.
// GR-NO-LOW blocks every action whose priority is below 2 when the user is busy (a quiet action
// has none, so it is blocked then). So the note with the highest priority wins, as long as it
// is at least 2. note_writer's reply must name the note's topic, say "today" or "this morning",
// start with a capital letter, stay under 100 characters, quote no percentage, never hedge,
// carry a title, and have a warm tone if any (LAB-*); no gambling (LAB-PROHIB-001).

export interface LabSignals {
  readonly visits: number;
  readonly mood?: 'calm' | 'busy';
}

export interface Note {
  readonly action_id: string;
  readonly type: 'note';
  readonly title: string;
  readonly topic: string;
  readonly priority: number;
}

export interface Quiet {
  readonly action_id: string;
  readonly type: 'quiet';
  readonly title: string;
}

/** note_writer's output (packages/engine/test/worlds/sec-lab/world.adec). */
export interface LabReply {
  readonly text: string;
  readonly title: string;
  readonly tone?: 'warm';
}

export interface LabEntry {
  readonly id: string;
  readonly signals: LabSignals;
  readonly selected: Note;
  readonly rivals: readonly (Note | Quiet)[];
  readonly reply: LabReply;
}

function note(action_id: string, title: string, topic: string, priority: number): Note {
  return { action_id, type: 'note', title, topic, priority };
}

function quiet(action_id: string, title: string): Quiet {
  return { action_id, type: 'quiet', title };
}

const FIRST_VISIT: LabSignals = { visits: 0 };
const REGULAR: LabSignals = { visits: 4 };
const BUSY: LabSignals = { visits: 9, mood: 'busy' };

const LAB: readonly Unnumbered<LabEntry>[] = [
  {
    signals: REGULAR,
    selected: note('note-a', 'Morning digest', 'weather', 5),
    rivals: [quiet('quiet-1', 'Quiet hour')],
    reply: { text: 'The weather is bright today — a light jacket will do nicely.', title: 'Morning digest', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('birds-7', 'Birdsong at dawn', 'birdsong', 7),
    rivals: [note('tide-3', 'Tide tables', 'tides', 3), quiet('quiet-2', 'Do not disturb')],
    reply: { text: 'Listen for birdsong this morning: robins first, then the wrens.', title: 'Birdsong at dawn' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('bread-6', 'Sourdough basics', 'sourdough', 6),
    rivals: [quiet('quiet-3', 'Nothing for now')],
    reply: { text: 'Your sourdough starter wants a feed today: flour, water, and a warm spot.', title: 'Sourdough basics', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('tea-4', 'A cup of something', 'green tea', 4),
    rivals: [note('coffee-2', 'Coffee corner', 'espresso', 2)],
    reply: { text: 'A pot of green tea today? Steep it at 80 °C for two minutes.', title: 'A cup of something' },
  },
  {
    signals: BUSY,
    selected: note('plants-8', 'Houseplant check', 'houseplants', 8),
    rivals: [note('chess-1', 'Chess corner', 'chess openings', 1), quiet('quiet-4', 'Silent mode')],
    reply: { text: 'Quick one today: give the houseplants a drink and turn them toward the light.', title: 'Houseplant check' },
  },
  {
    signals: REGULAR,
    selected: note('sky-9', 'Tonight’s sky', 'the night sky', 9),
    rivals: [note('moon-5', 'Moon phases', 'lunar cycles', 5)],
    reply: { text: 'Clear skies today mean the night sky should put on a show after ten.', title: 'Tonight’s sky', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('jazz-6', 'Listening list', 'jazz', 6),
    rivals: [quiet('quiet-5', 'Pause')],
    reply: { text: 'Some jazz for today: a slow trumpet ballad to go with your coffee.', title: 'Listening list' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('py-7', 'Code tip', 'Python', 7),
    rivals: [note('rust-6', 'Systems corner', 'Rust', 6), quiet('quiet-6', 'Later')],
    reply: { text: 'A Python tip for today: enumerate() gives you the index and the item together.', title: 'Code tip' },
  },
  {
    signals: REGULAR,
    selected: note('route-5', 'Road trip', 'Route 66', 5),
    rivals: [note('map-3', 'Map of the week', 'cartography', 3)],
    reply: { text: 'Route 66 today: 2,448 miles of diners, neon signs and open road.', title: 'Road trip', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('brulee-6', 'Dessert of the day', 'crème brûlée', 6),
    rivals: [quiet('quiet-7', 'Quiet hour')],
    reply: { text: 'Crack the caramel top of a crème brûlée today — the sound is half the fun.', title: 'Dessert of the day' },
  },
  {
    signals: BUSY,
    selected: note('focus-4', 'Deep work', 'focus', 4),
    rivals: [note('news-3', 'Headlines', 'news', 3), quiet('quiet-8', 'Mute')],
    reply: { text: 'One thing at a time today: protect an hour of focus and close the other tabs.', title: 'Deep work' },
  },
  {
    signals: REGULAR,
    selected: note('grandma-5', 'From the recipe box', "Grandma's apple cake", 5),
    rivals: [note('soup-4', 'Soup season', 'soups', 4)],
    reply: { text: "Bake Grandma's apple cake today: cinnamon, butter, and a kitchen that smells like home.", title: 'From the recipe box', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('hydrate-3', 'Water break', 'hydration', 3),
    rivals: [quiet('quiet-9', 'Quiet hour')],
    reply: { text: 'A gentle nudge on hydration today: keep a glass of water within reach.', title: 'Water break' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('read-8', 'Reading nook', 'reading', 8),
    rivals: [note('poem-7', 'A poem a day', 'poetry', 7), quiet('quiet-10', 'Nothing new')],
    reply: { text: 'Twenty pages of reading today, with a blanket and a mug. Bliss.', title: 'Reading nook', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('compost-4', 'Garden tips', 'compost', 4),
    rivals: [note('weeds-2', 'Weed watch', 'weeding', 2)],
    reply: { text: 'Turn the compost today; a few forkfuls of air keep it sweet.', title: 'Garden tips' },
  },
  {
    signals: REGULAR,
    selected: note('cafe-5', 'Café culture', 'café culture', 5),
    rivals: [quiet('quiet-11', 'Do not disturb')],
    reply: { text: 'A little café culture today: find a window seat and watch the street go by.', title: 'Café culture' },
  },
  {
    signals: BUSY,
    selected: note('budget-6', 'Money minute', 'budgeting', 6),
    rivals: [note('tax-1', 'Tax tip', 'taxes', 1)],
    reply: { text: 'Five minutes of budgeting this morning: check what went out this week.', title: 'Money minute' },
  },
  {
    signals: REGULAR,
    selected: note('sleep-7', 'Wind-down', 'sleep', 7),
    rivals: [note('screen-5', 'Screen time', 'screens', 5), quiet('quiet-12', 'Quiet hour')],
    reply: { text: 'For better sleep tonight, dim the lights early today and keep the room cool.', title: 'Wind-down', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('photo-5', 'Photo walk', 'photography', 5),
    rivals: [quiet('quiet-13', 'Later')],
    reply: { text: 'Golden hour photography today: shoot into the light and let it flare.', title: 'Photo walk' },
  },
  {
    signals: REGULAR,
    selected: note('lang-6', 'Word of the day', 'Spanish', 6),
    rivals: [note('lang-fr-4', 'Mot du jour', 'French', 4)],
    reply: { text: "Spanish word for today: 'madrugada', the small hours before dawn.", title: 'Word of the day', tone: 'warm' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('knit-4', 'Craft corner', 'knitting', 4),
    rivals: [quiet('quiet-14', 'Quiet hour')],
    reply: { text: 'Cast on something small today; knitting a dishcloth is a happy start.', title: 'Craft corner' },
  },
  {
    signals: REGULAR,
    selected: note('chess-6', 'Chess corner', 'chess openings', 6),
    rivals: [note('go-5', 'Go problems', 'go', 5)],
    reply: { text: 'A line from the chess openings today: the Italian, calm and classical.', title: 'Chess corner' },
  },
  {
    signals: BUSY,
    selected: note('stand-3', 'Stand up', 'posture', 3),
    rivals: [note('snack-1', 'Snack idea', 'snacks', 1), quiet('quiet-15', 'Mute')],
    reply: { text: 'A posture check today: shoulders down, screen at eye level, feet flat.', title: 'Stand up' },
  },
  {
    signals: REGULAR,
    selected: note('tide-6', 'Tide tables', 'low tide', 6),
    rivals: [note('surf-4', 'Surf report', 'swell', 4)],
    reply: { text: 'The low tide is at 3:40 today, perfect for a walk among the rock pools.', title: 'Tide tables', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('paint-5', 'Studio hour', 'watercolour', 5),
    rivals: [quiet('quiet-16', 'Quiet hour')],
    reply: { text: 'Try wet-on-wet watercolour today and let the colours bloom into each other.', title: 'Studio hour' },
  },
  {
    signals: REGULAR,
    selected: note('bees-7', 'Garden visitors', 'bees', 7),
    rivals: [note('butterfly-6', 'Wings', 'butterflies', 6), quiet('quiet-17', 'Later')],
    reply: { text: 'The lavender is busy with bees this morning. Worth a quiet look!', title: 'Garden visitors', tone: 'warm' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('vinyl-4', 'Record shelf', 'vinyl', 4),
    rivals: [note('radio-2', 'On the radio', 'radio', 2)],
    reply: { text: 'Put on some vinyl today — side A, start to finish, no skipping.', title: 'Record shelf' },
  },
  {
    signals: REGULAR,
    selected: note('rain-5', 'Rainy day', 'rain', 5),
    rivals: [quiet('quiet-18', 'Do not disturb')],
    reply: { text: 'Expect rain today, all day: a good excuse for soup, socks and a long film.', title: 'Rainy day', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('history-6', 'On this day', 'history', 6),
    rivals: [note('trivia-4', 'Trivia', 'trivia', 4)],
    reply: { text: 'A slice of history for today: the first public library opened its doors.', title: 'On this day' },
  },
  {
    signals: BUSY,
    selected: note('inbox-5', 'Inbox zero', 'email', 5),
    rivals: [quiet('quiet-19', 'Quiet hour')],
    reply: { text: 'Ten minutes on email this morning, then close the tab until lunch.', title: 'Inbox zero' },
  },
  {
    signals: REGULAR,
    selected: note('bike-4', 'Bike care', 'bike maintenance', 4),
    rivals: [note('car-3', 'Car care', 'tyre pressure', 3)],
    reply: { text: 'A bit of bike maintenance today: oil the chain and check the brakes.', title: 'Bike care' },
  },
  {
    signals: REGULAR,
    selected: note('moon-8', 'Moon watch', 'full moon', 8),
    rivals: [note('sky-6', 'Star chart', 'constellations', 6), quiet('quiet-20', 'Later')],
    reply: { text: 'There is a full moon today; step outside around nine and look east.', title: 'Moon watch', tone: 'warm' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('welcome-5', 'Welcome', 'getting started', 5),
    rivals: [quiet('quiet-21', 'Quiet hour')],
    reply: { text: 'Welcome! For getting started today, pick one note and enjoy it.', title: 'Welcome' },
  },
  {
    signals: REGULAR,
    selected: note('soup-5', 'Soup season', 'lentil soup', 5),
    rivals: [note('salad-4', 'Salad days', 'salads', 4)],
    reply: { text: 'Make a pot of lentil soup today; it tastes even better tomorrow.', title: 'Soup season', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('museum-6', 'Day out', 'museums', 6),
    rivals: [quiet('quiet-22', 'Do not disturb')],
    reply: { text: 'Many museums are free today — wander in and find one painting you love.', title: 'Day out' },
  },
  {
    signals: BUSY,
    selected: note('meet-4', 'Meeting prep', 'agenda', 4),
    rivals: [note('doodle-1', 'Doodle break', 'doodling', 1)],
    reply: { text: 'Write the agenda today, three bullet points at most, and share it early.', title: 'Meeting prep' },
  },
  {
    signals: REGULAR,
    selected: note('origami-5', 'Paper folding', 'origami', 5),
    rivals: [note('calli-3', 'Lettering', 'calligraphy', 3), quiet('quiet-23', 'Quiet hour')],
    reply: { text: 'Fold an origami crane today. Square paper, patience, and a crisp crease.', title: 'Paper folding', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('thanks-6', 'Small joys', 'gratitude', 6),
    rivals: [quiet('quiet-24', 'Later')],
    reply: { text: 'A moment of gratitude this morning: name three good things, big or small.', title: 'Small joys', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('fog-5', 'Foggy start', 'fog', 5),
    rivals: [note('frost-4', 'Frost alert', 'frost', 4)],
    reply: { text: "Thick fog this morning, lifting by noon. Headlights on if you're driving.", title: 'Foggy start' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('puzzle-7', 'Brain teaser', 'crosswords', 7),
    rivals: [note('sudoku-6', 'Number grid', 'sudoku', 6)],
    reply: { text: 'Try the crosswords today: start with the short answers and build out.', title: 'Brain teaser' },
  },
  {
    signals: REGULAR,
    selected: note('harvest-5', 'Harvest time', 'apples', 5),
    rivals: [quiet('quiet-25', 'Quiet hour')],
    reply: { text: 'The apples are ripe today. Twist gently; if it comes away, it is ready.', title: 'Harvest time', tone: 'warm' },
  },
  {
    signals: BUSY,
    selected: note('walk-meeting-6', 'Walking meeting', 'walking meetings', 6),
    rivals: [note('lunch-1', 'Lunch idea', 'sandwiches', 1)],
    reply: { text: 'Try one of your calls as walking meetings today: headset in, door open.', title: 'Walking meeting' },
  },
  {
    signals: REGULAR,
    selected: note('film-6', 'Film night', 'classic films', 6),
    rivals: [note('series-5', 'Series tip', 'box sets', 5), quiet('quiet-26', 'Later')],
    reply: { text: "A night of classic films for today: a black-and-white comedy, popcorn, and the lights down.", title: 'Film night' },
  },
  {
    signals: REGULAR,
    selected: note('stars-4', 'Astronomy', 'Jupiter', 4),
    rivals: [quiet('quiet-27', 'Do not disturb')],
    reply: { text: "Jupiter is bright in the south today after dusk; binoculars show its moons.", title: 'Astronomy', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('clean-5', 'Tidy corner', 'decluttering', 5),
    rivals: [note('laundry-3', 'Wash day', 'laundry', 3)],
    reply: { text: 'A little decluttering today: one drawer, ten minutes, and a good podcast.', title: 'Tidy corner' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('ferment-6', 'Kitchen science', 'kimchi', 6),
    rivals: [quiet('quiet-28', 'Quiet hour')],
    reply: { text: 'Start a jar of kimchi today: cabbage, salt, chilli, garlic, and time.', title: 'Kitchen science', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('letter-5', 'Write a letter', 'letter writing', 5),
    rivals: [note('phone-4', 'Catch-up call', 'phone calls', 4)],
    reply: { text: 'An afternoon of letter writing today: a real pen, a stamp, a friend far away.', title: 'Write a letter' },
  },
  {
    signals: BUSY,
    selected: note('breath-3', 'Breathing space', 'breathing', 3),
    rivals: [quiet('quiet-29', 'Mute'), note('game-1', 'Game break', 'puzzle games', 1)],
    reply: { text: 'Between calls today, take one minute for slow breathing. In for four, out for six.', title: 'Breathing space', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('market-6', 'Market day', 'farmers market', 6),
    rivals: [note('shop-4', 'Shopping list', 'groceries', 4)],
    reply: { text: 'The farmers market is open today; go early for the best tomatoes.', title: 'Market day' },
  },
  {
    signals: REGULAR,
    selected: note('snow-7', 'Snow day', 'snow', 7),
    rivals: [note('ice-6', 'Ice warning', 'ice', 6), quiet('quiet-30', 'Later')],
    reply: { text: 'Fresh snow today! Boots, gloves, and a thermos of cocoa for the walk.', title: 'Snow day', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('mend-4', 'Fix it', 'mending', 4),
    rivals: [quiet('quiet-31', 'Quiet hour')],
    reply: { text: 'A small mending job today: sew that button back on while the radio plays.', title: 'Fix it' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('seeds-5', 'Seed tray', 'seedlings', 5),
    rivals: [note('lawn-3', 'Lawn care', 'mowing', 3)],
    reply: { text: 'Check the seedlings this morning; if they lean, turn the tray around.', title: 'Seed tray', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('aurora-9', 'Northern lights', 'aurora', 9),
    rivals: [note('meteor-8', 'Meteor shower', 'meteors', 8), quiet('quiet-32', 'Do not disturb')],
    reply: { text: 'An aurora is possible today after dark — look north, away from streetlights.', title: 'Northern lights', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('podcast-5', 'In your ears', 'podcasts', 5),
    rivals: [quiet('quiet-33', 'Later')],
    reply: { text: 'Two short podcasts for today’s commute: one on octopuses, one on bridges.', title: 'In your ears' },
  },
  {
    signals: BUSY,
    selected: note('water-2', 'Sip', 'water', 2),
    rivals: [note('nap-1', 'Power nap', 'naps', 1), quiet('quiet-34', 'Mute')],
    reply: { text: 'Busy day today, so just this: a glass of water with every meeting.', title: 'Sip' },
  },
  {
    signals: REGULAR,
    selected: note('pie-6', "Baker's corner", 'pie crust', 6),
    rivals: [note('bread-5', 'Bread basics', 'sourdough', 5)],
    reply: { text: "Keep the butter cold today and the pie crust will come out flaky. Baker's secret!", title: "Baker's corner", tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('french-5', 'Mot du jour', 'French', 5),
    rivals: [quiet('quiet-35', 'Quiet hour')],
    reply: { text: 'A French phrase for today: « petit à petit » — little by little.', title: 'Mot du jour' },
  },
  {
    signals: REGULAR,
    selected: note('maps-6', 'Map of the week', 'old maps', 6),
    rivals: [note('globe-4', 'Globe trotting', 'geography', 4)],
    reply: { text: 'The old maps are full of sea monsters; spot one today in the margins.', title: 'Map of the week' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('swim-5', 'Lido news', 'outdoor pool', 5),
    rivals: [quiet('quiet-36', 'Later')],
    reply: { text: 'The outdoor pool opens at 7 today. Bring a towel and a warm hat for after.', title: 'Lido news', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('haiku-4', 'Short form', 'haiku', 4),
    rivals: [note('sonnet-3', 'Long form', 'sonnets', 3)],
    reply: { text: 'Write a haiku today: five, seven, five syllables, and one clear image.', title: 'Short form', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('owl-6', 'Night sounds', 'owls', 6),
    rivals: [quiet('quiet-37', 'Do not disturb')],
    reply: { text: "The owls are calling early today — listen for the 'too-wit' and the reply.", title: 'Night sounds' },
  },
  {
    signals: BUSY,
    selected: note('desk-4', 'Desk reset', 'desk setup', 4),
    rivals: [note('plant-1', 'Desk plant', 'succulents', 1)],
    reply: { text: 'One change to your desk setup today: raise the screen to eye height.', title: 'Desk reset' },
  },
  {
    signals: REGULAR,
    selected: note('kite-5', 'Windy day', 'kite flying', 5),
    rivals: [note('sail-4', 'Sailing', 'sailing', 4), quiet('quiet-38', 'Later')],
    reply: { text: 'Steady wind today makes for great kite flying on the hill. Let out the line slowly.', title: 'Windy day', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('birds-5', 'Garden birds', 'birds', 5),
    rivals: [quiet('quiet-1', 'Quiet hour')],
    reply: { text: 'Three birds to spot today: the wren, the robin and the blue tit.', title: 'Garden birds' },
  },
  {
    signals: REGULAR,
    selected: note('latin-5', 'Motto', 'Latin', 5),
    rivals: [quiet('quiet-1', 'Quiet hour')],
    reply: { text: 'Carpe diem is the Latin for today: “seize the day”.', title: 'Motto' },
  },
  {
    signals: REGULAR,
    selected: note('tips-6', 'Top tips', 'houseplants', 6),
    rivals: [quiet('quiet-39', 'Quiet hour')],
    reply: { text: 'Top tips for houseplants today: water less in winter, and turn the pots weekly.', title: 'Top tips' },
  },
  {
    signals: REGULAR,
    selected: note('match-5', 'Match day', 'football', 5),
    rivals: [note('cricket-3', 'Cricket corner', 'cricket', 3)],
    reply: { text: 'The football is on today: kick-off at three, and the score is anyone’s guess.', title: 'Match day', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('marathon-7', 'Race day', 'marathon', 7),
    rivals: [quiet('quiet-40', 'Later')],
    reply: { text: 'The city marathon runs today; the leaders reach the bridge around ten.', title: 'Race day' },
  },
  {
    signals: REGULAR,
    selected: note('tennis-6', 'Court report', 'tennis', 6),
    rivals: [note('golf-4', 'Fairway news', 'golf', 4)],
    reply: { text: 'Big tennis today: the final starts at two, and the first serve is always tense.', title: 'Court report' },
  },
  {
    signals: FIRST_VISIT,
    selected: note('snowdrops-5', 'Early spring', 'snowdrops', 5),
    rivals: [quiet('quiet-41', 'Quiet hour')],
    reply: { text: 'Look for snowdrops today; they are usually the earliest flowers of the year.', title: 'Early spring', tone: 'warm' },
  },
  {
    signals: REGULAR,
    selected: note('knots-4', 'Knot of the week', 'bowline', 4),
    rivals: [note('rope-2', 'Rope care', 'rope', 2)],
    reply: { text: 'Tie a bowline today: out of the hole, round the tree, and back down again.', title: 'Knot of the week' },
  },
  {
    signals: BUSY,
    selected: note('black-tea-5', 'Tea break', 'black tea', 5),
    rivals: [quiet('quiet-42', 'Mute')],
    reply: { text: 'A cup of black tea today — stronger than green, so steep it for three minutes only.', title: 'Tea break' },
  },
  {
    signals: REGULAR,
    selected: note('chess-puzzle-6', 'Puzzle of the day', 'chess', 6),
    rivals: [note('go-5', 'Go problems', 'go', 5)],
    reply: { text: 'A chess puzzle for today: white to move and mate in two. Take your time.', title: 'Puzzle of the day', tone: 'warm' },
  },
];

/** The fitness entries, numbered `fitness-001`… in the order written. */
export const FITNESS_CORPUS: readonly FitnessEntry[] = FITNESS.map((entry, i) => ({ id: `fitness-${String(i + 1).padStart(3, '0')}`, ...entry }));

/** The SEC lab entries, numbered `lab-001`… in the order written. */
export const LAB_CORPUS: readonly LabEntry[] = LAB.map((entry, i) => ({ id: `lab-${String(i + 1).padStart(3, '0')}`, ...entry }));
