/**
 * Ranking and comparing the options, by meaning (docs/skill-text.md): each phrasing the page
 * lists as covered is found with its kind, and phrases that praise the selected action or speak
 * of time, which a skill may write, are not.
 */
import { describe, expect, test } from 'vitest';
import { RANKING_LANGUAGE } from '../src/skills/text/ranking-language.js';
import { findPattern, textForms } from '../src/skills/text/text-forms.js';

const kindsOf = (text: string) => RANKING_LANGUAGE.filter((kind) => findPattern(kind.pattern, textForms(text)) !== null).map((kind) => kind.id);

describe('ranking language', () => {
  test.each([
    ['faster than the rest', 'RANK-COMPARES'],
    ['more suitable than the other sessions', 'RANK-COMPARES'],
    ['better than either one', 'RANK-COMPARES'],
    ['better than the other sessions', 'RANK-COMPARES'],
    ['superior to a run', 'RANK-COMPARES'],
    ['preferable to', 'RANK-COMPARES'],
    ['preferred over yoga', 'RANK-COMPARES'],
    ['compared to the others', 'RANK-COMPARES'],
    ['versus the alternatives', 'RANK-COMPARES'],
    ['a comparison of sessions', 'RANK-COMPARES'],
    ['my top pick', 'RANK-SUPERLATIVE'],
    ['the best choice today', 'RANK-SUPERLATIVE'],
    ['a better option', 'RANK-SUPERLATIVE'],
    ['our first choice', 'RANK-SUPERLATIVE'],
    ['the safest bet', 'RANK-SUPERLATIVE'],
    ['the best of the three', 'RANK-SUPERLATIVE'],
    ['the strongest among them', 'RANK-SUPERLATIVE'],
    ['the most sensible of all the options', 'RANK-SUPERLATIVE'],
    ['a top-ranked session', 'RANK-SUPERLATIVE'],
    ['the best-rated class', 'RANK-SUPERLATIVE'],
    ['the highest-scoring plan', 'RANK-SUPERLATIVE'],
    ['it took 2nd place', 'RANK-POSITION'],
    ['in last spot', 'RANK-POSITION'],
    ['placed second', 'RANK-POSITION'],
    ['the runner-up', 'RANK-POSITION'],
    ['the second best', 'RANK-POSITION'],
    ['next in line', 'RANK-POSITION'],
    ['ahead of the others', 'RANK-POSITION'],
    ['it ranked well', 'RANK-RANKS'],
    ['it outscored yoga', 'RANK-RANKS'],
    ['it outperformed', 'RANK-RANKS'],
    ['it beats the others', 'RANK-RANKS'],
    ['top of the leaderboard', 'RANK-RANKS'],
    ['it scored higher', 'RANK-RANKS'],
    ['a score of 0.8', 'RANK-RANKS'],
    ['the highest score', 'RANK-RANKS'],
    ['its score', 'RANK-RANKS'],
    ['worth 40 points', 'RANK-RANKS'],
    ['rated highly', 'RANK-RANKS'],
    ['a solid 8/10', 'RANK-RANKS'],
    ['9 out of 10', 'RANK-RANKS'],
    ['a high probability', 'RANK-RANKS'],
    ['the other options', 'RANK-OTHERS'],
    ['another option', 'RANK-OTHERS'],
    ['the alternatives', 'RANK-OTHERS'],
    ['do this instead', 'RANK-OTHERS'],
    ['unlike the others', 'RANK-OTHERS'],
    ['the rest of the options', 'RANK-OTHERS'],
    ['over the alternatives', 'RANK-OTHERS'],
    ['one of the three', 'RANK-OTHERS'],
    ['among them', 'RANK-OTHERS'],
    ['we would have chosen yoga', 'RANK-OTHERS'],
  ])('%j is %s', (text, kind) => {
    expect(kindsOf(`The weather today: ${text}.`)).toContain(kind);
  });

  test.each([
    'A great way to start the week.',
    'Your best pace yet, and an easy one.',
    'The first session this week sets the tone.',
    'Enjoy the rest of your day.',
    'Get the rest you need after a long week.',
    'Another great week of steady training.',
    'Twenty minutes, more than enough to warm up.',
    'Longer than usual, so bring water.',
    'Keep your heart rate steady for 30 minutes.',
    'An outdoor run in the afternoon sun.',
    'Better sleep starts with a calm evening.',
    'The perfect choice for a calm evening.',
    'Top of the morning to you!',
    'A 5K at an easy pace, open 24/7 at the gym.',
    'Keep score if you want to!',
    'Kick-off at three, and the score is anyone\'s guess.',
  ])('%j is not ranking', (text) => {
    expect(kindsOf(text)).toEqual([]);
  });
});
