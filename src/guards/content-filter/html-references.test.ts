import { describe, expect, it } from 'vitest';
import {
  contentFilterWindowMiddleware,
  expectAllowed,
  expectEachVerdict,
  expectSelfHarmGenerated,
  expectStreamedWhole,
  expectWindowHoldsPhrase,
  selfHarmVerdict,
} from '../../../test/helpers/content-filter-cases';
import { referenceAt } from './html-references';
import { withoutEmphasis } from './markdown-emphasis';

/**
 * Round 36 (hH): round 35 read numeric references with their `;` and seven
 * named ones. A browser shows every HTML5 named reference, a numeric one
 * without its `;` or with leading zeros, the C1 codes as Windows-1252, and
 * a Latin-1 named one without its `;`: each of these passed the default
 * lists as written.
 */
describe('contentFilter: character references read as a browser shows them', () => {
  const killYourself = [
    'kill&ndash;yourself',
    'kill&mdash;yourself',
    'kill&hellip;yourself',
    'kill&NonBreakingSpace;yourself',
    'kill&NewLine;yourself',
    'ki&ZeroWidthSpace;ll yourself',
    'ki&lstrok;l yourself',
    '&kopf;ill yourself',
    'kill y&ocy;urself',
    'kill y&omicron;urself',
    'kill &Yacute;ourself',
    '&#x6Bill yourself',
    '&#107ill yourself',
    'kill &#00000000121;ourself',
    'kill &#159;ourself',
    'kill&#150;yourself',
    'kill&nbspyourself',
    'kill&period;yourself',
  ];

  it('blocks each, with the exact verdict; generateText gives the blocked message and record', async () => {
    await expectSelfHarmGenerated('Honestly, just kill&ndash;yourself.');
    await expectEachVerdict(killYourself, selfHarmVerdict(1));
    await expectEachVerdict(['suicid&eacute; method', 'SUICID&Eacute METHOD'], selfHarmVerdict(3));
  });

  it('reads each reference as its character and maps it back to its `&`', () => {
    expect(withoutEmphasis('a&eacute;b&#107c&nbspd')).toEqual({
      text: 'a\u00e9bkc\u00a0d',
      origin: Int32Array.from([0, 1, 9, 10, 15, 16, 21]),
    });
    expect(referenceAt('&ltri;', 0)).toEqual({ shown: '\u25c3', end: 6 });
    expect(referenceAt('&notit;', 0)).toBeUndefined();
    expect(referenceAt('&#0;', 0)).toEqual({ shown: '\ufffd', end: 4 });
    expect(referenceAt(`&#${'9'.repeat(40)};`, 0)).toEqual({ shown: '\ufffd', end: 43 });
    expect(referenceAt('&#xD800', 0)).toEqual({ shown: '\ufffd', end: 7 });
    expect(referenceAt('&#x81;', 0)).toEqual({ shown: '\u0081', end: 6 });
    expect(referenceAt('&#x92;', 0)).toEqual({ shown: '\u2019', end: 6 });
  });

  it('leaves as written what a browser shows as written, and the symbols beyond the table', () => {
    for (const text of ['&qacute;', '&#x;', '&#;', '&#xZ', '& b', '&', '&rarr;', '&copy;']) {
      expect(referenceAt(text, 0), text).toBeUndefined();
    }
    // Only the Latin-1 names are read without their `;`.
    expect(referenceAt('&ZeroWidthSpacex', 0)).toBeUndefined();
    expect(referenceAt('&hellipx', 0)).toBeUndefined();
  });

  it('passes prose with references and without an entry', async () => {
    await expectAllowed([
      'Caf&eacute; &amp; cr&egrave;me &ndash; &copy; 2024 &rarr; kill the job, &lt;b&gt;.',
      'kill&ZeroWidthSpaceyourself is shown as written',
      'we skill&#8203;ful folk',
    ]);
  });

  it('window mode releases no letter of the entry, for any chunking', async () => {
    const middleware = contentFilterWindowMiddleware();
    for (const phrase of ['kill&ndash;yourself', '&#107ill yourself', 'kill &#159;ourself']) {
      await expectWindowHoldsPhrase(middleware, phrase, 0);
    }
    await expectWindowHoldsPhrase(middleware, 'ki&ZeroWidthSpace;ll yourself', 0);
  });

  it('window mode streams prose with references and without an entry whole', async () => {
    await expectStreamedWhole(
      contentFilterWindowMiddleware(),
      'Caf&eacute; &amp; cr&egrave;me&nbsp;br&ucirc;l&eacute;e &ndash; a skill&hellip; &copy; 2024.',
    );
  });
});
