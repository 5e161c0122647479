import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { differentialTexts, edgeSizes } from '../../../../test/helpers/window-differential';
import { pii } from '../pii';

/*
 * Round 50 second review (hI) of r50-hC (issue 16): window mode with NER
 * entities must end as generate does. Every case streams through
 * streamText (MockLanguageModelV4, `windowAndGenerateTexts`) with pii
 * PERSON and ORGANIZATION redacting. A word shown raw where generate
 * redacts it is a leak.
 *
 * The first two are hC's own open leaks (held-out addresses 180 and 326),
 * confirmed here with exact spans. The last two are new, from texts written
 * for this review (order prose, a delivery address split over lines, then
 * more than 256 characters of capitalised names, places and firms before
 * the run that leaks): the same cause as hC names (generate's reading of
 * the run turns on text further back than a window keeps).
 */
const guard = () => pii({ entities: ['PERSON', 'ORGANIZATION'], action: 'redact' });

async function both(text: string, sizes: number[]) {
  const { generated, streamed } = await windowAndGenerateTexts(guard(), text, [sizes]);
  return { generated, streamed: streamed[0]! };
}

const heldOut = (index: number) => differentialTexts('addresses', 5003, index + 1)[index]!;

/** Order prose, two addresses, a long run of capitalised words; leaks in deltas cut at names' edges. */
const ORDER_LIST =
  'The parcel was delayed by the storm, sorry about that. Thanks for your order, we will send it out tomorrow morning. Please keep the receipt for your records. Thanks for your order, we will send it out tomorrow morning. The courier usually arrives between nine and five. Best, Priya Okafor from Contoso Health. Send it to Lucas Petrova\n\n1245 Harbor Road\n\nToronto, ON M5V 2T6\n\nCastillo Washington Grace Lucas\nRaman Attn:\nRaman c/o Ingrid Springfield Priya Lindqvist Springfield Ingrid Attn: Tomasz Lopez Lopez Petrova PO Box 7 Lopez Contoso Health Toronto Blue Harbor Bank Springfield Paris 75001 Seattle Acme Logistics Ltd. Samuel Seattle\nRaman Haddad Moreau PO Box 7 PO Box 7 Dublin 2 NY\nSeattle Paris 75001 Aisha CO CO Daniel PO Box 7 Paris 75001 Seattle Brennan Our warehouse team double-checked the items before packing. The parcel was delayed by the storm, sorry about that. Deliver to Olga Petrova\r\nContoso Health\r\n1898 Rue de Rivoli\r\nApt 39\r\nToronto, ON M5V 2T6\n\nTomasz\nRaman Maria Lucas\nOkafor New York\nSpringfield Tanaka Tanaka Ingrid Ingrid Hiroshi Whitfield Leeds LS1 4AP Northwind Traders Raman Tomasz Castillo Suite 200 New York\nGrace Ingrid , Okafor Toronto CO Nowak Northwind Traders Leeds LS1 4AP\nOlga Whitfield Suite 200 Whitfield Tanaka New York Okafor Acme Logistics Ltd. Nowak Austin\nWashington Grace Fatima Nowak Daniel Tanaka Priya Contoso Health Seattle Blue Harbor Bank c/o Paris 75001 c/o Hiroshi Petrova Mr. Petrova If anything is missing, reply to this message and we will fix it. Best, Olga Lopez from Acme Logistics Ltd.. Send it to\nAttn: Lucas Moreau\nBlue Harbor Bank\n477 Maple Avenue\nApt 38\nSpringfield, IL 62704\n';

/** Capitalised lines, prose, addresses over CRLF lines; leaks in deltas of 3. */
const LINES_THEN_ORDER =
  'Raman\nMoreau Moreau Maria\nToronto PO Box 7 Paris 75001 PO Box 7 Nowak Samuel\nLucas Dublin 2 Olga the , Acme Logistics Ltd. Tomasz Ingrid Lopez\nContoso Health Our warehouse team double-checked the items before packing. Thanks for your order, we will send it out tomorrow morning. Please keep the receipt for your records. The courier usually arrives between nine and five. Thanks for your order, we will send it out tomorrow morning. Send it to Aisha Haddad\r\nNorthwind Traders\r\n92 Maple Avenue\r\nApt 3\r\nLeeds LS1 4AP\n\nWashington Olga Washington Grace Samuel Washington\nCastillo Aisha\nNowak Haddad Nowak Suite 200 Tomasz Brennan\nIngrid the Aisha\nWhitfield\nWashington Blue Harbor Bank CO Aisha Washington Mr. Tomasz Daniel Castillo If anything is missing, reply to this message and we will fix it. Best, Olga Raman from Contoso Health. Deliver to\nDr. Priya Whitfield\n322 Queen Street West\nToronto, ON M5V 2T6\n\nBlue Harbor Bank Grace Haddad\nSpringfield Austin Contoso Health Ingrid Paris 75001\n, Paris 75001 Olga\nContoso Health Olga Castillo Northwind Traders Maria Aisha Ingrid Blue Harbor Bank Seattle Washington\nAisha Fatima Acme Logistics Ltd. Olga Raman Washington Samuel Maria Whitfield Olga Hiroshi Haddad Lucas Raman Whitfield Aisha Petrova Dublin 2 Lopez Toronto Suite 200 Daniel\nLeeds LS1 4AP Moreau Fatima c/o PO Box 7 Olga the Okafor\nOkafor The courier usually arrives between nine and five. If anything is missing, reply to this message and we will fix it. If anything is missing, reply to this message and we will fix it. Our warehouse team double-checked the items before packing. Our warehouse team double-checked the items before packing. Send it to\nAttn: Samuel Lopez\r\n1362 Kingsway\r\nLeeds LS1 4AP\n';

describe('attack r50 review 2: window NER addresses (r50-hC)', () => {
  it('generate redacts each run below (the reference the streams must meet)', async () => {
    expect((await both(heldOut(180), [6])).generated).toContain(
      '10 Downing Street Washington [ORGANIZATION]. Portland OR Suite 200',
    );
    expect((await both(heldOut(326), [3, 11, 1])).generated).toContain(
      '221B Baker Street\n[ORGANIZATION] 6XE [PERSON] ship to London',
    );
    expect((await both(ORDER_LIST, edgeSizes(ORDER_LIST))).generated).toContain(
      'Tanaka New York Okafor Acme [ORGANIZATION]\nWashington Grace',
    );
    expect((await both(LINES_THEN_ORDER, [3])).generated).toContain(
      'Raman Whitfield [ORGANIZATION]\n[PERSON] LS1 4AP [PERSON] c/o PO Box 7',
    );
  }, 120_000);

  // Was open (hC's leak, held-out addresses 180): `Washington CO London Mr.`
  // streams raw in deltas of 6; generate redacts `CO London Mr` as an
  // organisation.
  // Fixed by round 50 hK (a later check reads from the start of the last
  // release that changed held-back text, `lastRead`): the stream equals generate.
  it('addresses 180 in deltas of 6 shows no run raw', async () => {
    const { generated, streamed } = await both(heldOut(180), [6]);
    expect(streamed).toContain('Washington [ORGANIZATION]. Portland OR');
    expect(streamed).toBe(generated);
  }, 60_000);

  // Was open (hC's leak, held-out addresses 326): the line after `221B Baker
  // Street` streams as written (`Portland New York NW1 6XE Kenji Watanabe
  // Kenji Watanabe`) where generate redacts it.
  // Fixed by round 50 hK (a later check reads from the start of the last
  // release that changed held-back text, `lastRead`): the stream equals generate.
  it('addresses 326 in deltas of 3, 11, 1 shows no run raw', async () => {
    const { generated, streamed } = await both(heldOut(326), [3, 11, 1]);
    expect(streamed).toContain('221B Baker Street\n[ORGANIZATION] 6XE [PERSON] ship to');
    expect(streamed).toBe(generated);
  }, 60_000);

  // Open (new; still a leak after round 50 hK: no check within the window
  // redacted the run, so `lastRead` has nothing to keep): `Acme Logistics Ltd. Nowak Austin` streams raw (cut at each
  // capitalised word's start and two characters in), generate redacts
  // `Logistics Ltd. Nowak Austin` as one organisation; the run follows
  // more than 256 characters of capitalised words after the second address.
  it.fails("an order list cut at names' edges shows no run raw", async () => {
    const { generated, streamed } = await both(ORDER_LIST, edgeSizes(ORDER_LIST));
    expect(streamed).toContain('Okafor Acme [ORGANIZATION]\nWashington');
    expect(streamed).toBe(generated);
  }, 60_000);

  // Was open (new): in deltas of 3, `Aisha Petrova Dublin 2 Lopez Toronto Suite
  // 200 Daniel` and `Leeds LS1 4AP Moreau Fatima` stream raw; generate
  // redacts them (`[ORGANIZATION]\n[PERSON] LS1 4AP [PERSON]`), and the
  // stream redacts other words of the line instead (`Samuel [PERSON]
  // [PERSON] 2`).
  // Fixed by round 50 hK (a later check reads from the start of the last
  // release that changed held-back text, `lastRead`): the stream equals generate.
  it('capitalised lines then an order in deltas of 3 show no run raw', async () => {
    const { generated, streamed } = await both(LINES_THEN_ORDER, [3]);
    expect(streamed).toContain('Whitfield [ORGANIZATION]\n[PERSON] LS1 4AP [PERSON] c/o');
    expect(streamed).toBe(generated);
  }, 60_000);
});
