import { badRequest } from '@portal/server-kit';
import {
  parseErfQuery,
  parseFarmQuery,
  postalCodeOf,
  QUERY_TEXT,
  readAddressQuery,
  readSearchText,
  splitPostalQuery,
  splitStreetQuery,
} from './avs/parse';
import {
  agreementFactor,
  areaCoverage,
  editDistance,
  nameCoverage,
  streetTypeFactor,
  wordMatch,
  type AddressAgreement,
} from './avs/score';

const text = (query: string) => readSearchText(query);

describe('readSearchText', () => {
  it("drops ' South Africa' and keeps the folded and normalised forms", () => {
    expect(text('  12 Church St, Stellenbosch South Africa ')).toEqual({
      raw: '12 Church St, Stellenbosch',
      folded: '12 church st stellenbosch',
      normalised: '12 church street stellenbosch',
    });
  });

  it('splits Afrikaans compound street names, so every way of writing one meets', () => {
    for (const written of ['Kerkstraat', 'Kerk Straat', 'Kerk Str', 'kerk street']) {
      expect(text(`12 ${written}`).normalised).toBe('12 kerk street');
    }
    expect(text('Voortrekkerweg, Parkrylaan, Kerklaan').normalised).toBe(
      'voortrekker road park drive kerk avenue',
    );
    // A type alone is not a compound.
    expect(text('Laan 5').normalised).toBe('avenue 5');
  });

  it('reads an Afrikaans type word before a street type as the name (Pleinlaan as "Plein Avenue")', () => {
    for (const written of ['Pleinlaan', 'Plein Laan', 'Plein Avenue', 'plein ave']) {
      expect(text(`20 ${written}, Deneysville`).normalised).toBe('20 plein avenue deneysville');
    }
    expect(readAddressQuery(text('20 Weg Street')).text).toBe('weg street');
    // Alone it is still the type: "Plein" is a square.
    expect(text('Kerk Plein').normalised).toBe('kerk square');
  });

  it.each([
    ['   ', QUERY_TEXT.empty],
    ['South Africa', QUERY_TEXT.empty],
    ['?!, --', QUERY_TEXT.noWords],
    ['a'.repeat(201), QUERY_TEXT.tooLong],
  ])('refuses %j with a 400 that says why', (query, message) => {
    expect(() => readSearchText(query)).toThrow(badRequest(message));
  });
});

describe('readAddressQuery', () => {
  it('reads number, unit and postal code', () => {
    expect(readAddressQuery(text('Unit 5, 12A Church St, Stellenbosch 7600'))).toEqual({
      unit: '5',
      houseNumber: '12a',
      number: 12,
      postalCode: '7600',
      text: 'church street stellenbosch',
    });
  });

  it("takes the street number after an estate's name", () => {
    expect(readAddressQuery(text('Unit 5 Eikestad Estate 30 Church Street'))).toEqual({
      unit: '5',
      houseNumber: '30',
      number: 30,
      text: 'eikestad estate church street',
    });
  });

  it('reads a town typed first as the area, not as part of the street name', () => {
    for (const written of [
      'Richards Bay, 33 Fish Eagle Street',
      'Richards Bay 33 Fish Eagle St',
      '33 Fish Eagle Street, Richards Bay',
    ]) {
      const query = readAddressQuery(text(written));
      expect([written, query.number, splitStreetQuery(query.text)]).toEqual([
        written,
        33,
        { core: 'fish eagle', area: 'richards bay', type: 'street' },
      ]);
    }
    // An estate or a unit before the number is not an area.
    expect(splitStreetQuery(readAddressQuery(text('Sunset Estate, 12 Church Street')).text)?.area).toBe('');
    expect(readAddressQuery(text('Flat B, 12 Church Street, Paarl')).text).toBe('flat b church street paarl');
  });

  it('leaves a trailing number alone', () => {
    expect(readAddressQuery(text('Church Street 12')).number).toBeUndefined();
  });
});

describe('splitStreetQuery', () => {
  it.each([
    [
      'church street stellenbosch central stellenbosch',
      'church',
      'stellenbosch central stellenbosch',
      'street',
    ],
    ['jan smuts avenue', 'jan smuts', '', 'avenue'],
    ['park road rondebosch', 'park', 'rondebosch', 'road'],
    ['blue valley court church street paarl', 'church', 'paarl', 'street'],
    ['silver oaks mews church street paarl', 'church', 'paarl', 'street'],
    ['chruch stret stelenbosch', 'chruch', 'stelenbosch', 'stret'],
    ['church stre', 'church', '', 'stre'],
  ])('%s: the name %j, the area %j, the type %j', (query, core, area, type) => {
    expect(splitStreetQuery(query)).toEqual({ core, area, type });
  });

  it('has no name without a street type', () => {
    expect(splitStreetQuery('church stellenbosch')).toBeUndefined();
    expect(splitStreetQuery('avenue')).toBeUndefined();
  });

  it('takes a type word as the name when nothing stands before it ("Court Street")', () => {
    expect(splitStreetQuery('court street')).toEqual({ core: 'court', area: '', type: 'street' });
    expect(splitStreetQuery('avenue road mokopane')).toEqual({
      core: 'avenue',
      area: 'mokopane',
      type: 'road',
    });
    // After a name, the first of two type words is the street's type.
    expect(splitStreetQuery('church street road')).toEqual({ core: 'church', area: 'road', type: 'street' });
  });
});

describe('parseErfQuery', () => {
  it('needs the word erf unless the erf flag is set', () => {
    expect(parseErfQuery(text('1234 Stellenbosch'), true)).toBeUndefined();
    expect(parseErfQuery(text('1234 Stellenbosch'), false)).toEqual({
      parcelNumber: '1234',
      portion: undefined,
      area: 'stellenbosch',
    });
  });

  it('reads portions written with a slash or a word', () => {
    expect(parseErfQuery(text('Erf 1234/3 Paarl'), true)).toEqual({
      parcelNumber: '1234',
      portion: 3,
      area: 'paarl',
    });
    expect(parseErfQuery(text('erf 0815 portion 2'), true)).toEqual({
      parcelNumber: '815',
      portion: 2,
      area: '',
    });
    expect(parseErfQuery(text('erf 77 remainder paarl'), true)).toEqual({
      parcelNumber: '77',
      portion: 0,
      area: 'paarl',
    });
  });

  it('is not an erf without a number first', () => {
    expect(parseErfQuery(text('erf stellenbosch 12'), true)).toBeUndefined();
    expect(parseErfQuery(text('12 church street'), true)).toBeUndefined();
  });
});

describe('parseFarmQuery', () => {
  it.each([
    ['Rietfontein 189', { name: 'rietfontein', farmNumber: 189, portion: undefined, division: undefined }],
    [
      'farm Doornkloof portion 3',
      { name: 'doornkloof', farmNumber: undefined, portion: 3, division: undefined },
    ],
    ['Rietfontein 189 JR ptn 12', { name: 'rietfontein', farmNumber: 189, portion: 12, division: 'jr' }],
    ['plaas 201 IQ', { name: '', farmNumber: 201, portion: undefined, division: 'iq' }],
    [
      'Doornkloof remaining extent',
      { name: 'doornkloof', farmNumber: undefined, portion: 0, division: undefined },
    ],
  ])('%s', (query, expected) => {
    expect(parseFarmQuery(text(query))).toEqual(expected);
  });

  it('needs a name or a number', () => {
    expect(parseFarmQuery(text('farm'))).toBeUndefined();
  });
});

describe('postal codes', () => {
  it('pads short codes to four digits', () => {
    expect(postalCodeOf(text('181'))).toBe('0181');
    expect(postalCodeOf(text('7600'))).toBe('7600');
    expect(postalCodeOf(text('76000'))).toBeUndefined();
  });

  it('splits a code from a name', () => {
    expect(splitPostalQuery(text('Stellenbosch 7600'))).toEqual({ code: '7600', name: 'stellenbosch' });
    expect(splitPostalQuery(text('83'))).toEqual({ code: '0083', name: '' });
    expect(splitPostalQuery(text('Die Boord'))).toEqual({ code: undefined, name: 'die boord' });
  });
});

describe('scoring', () => {
  it('counts transpositions as one edit', () => {
    expect(editDistance('chruch', 'church')).toBe(1);
    expect(editDistance('stelenbosch', 'stellenbosch')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('matches a half-typed last word, typos within bounds, nothing else', () => {
    expect(wordMatch('stellenbosch', 'stell', true)).toBeGreaterThan(0.8);
    expect(wordMatch('stellenbosch', 'stell', false)).toBe(0);
    expect(wordMatch('church', 'chruch', false)).toBeCloseTo(5 / 6);
    expect(wordMatch('church', 'lurch', false)).toBe(0);
    expect(wordMatch('dorp', 'dorp', false)).toBe(1);
  });

  it("weighs a name's distinctive words over its street type", () => {
    expect(nameCoverage(['church', 'street'], ['12', 'church', 'street', 'stellenbosch'])).toBe(1);
    expect(nameCoverage(['church', 'street'], ['stellenbosch'])).toBe(0);
    expect(nameCoverage(['dorp', 'street'], ['church', 'street'])).toBeCloseTo(0.2);
    // A compound name typed as two words, the street type in English or not.
    expect(nameCoverage(['kerkstraat'], ['kerk', 'straat'])).toBeCloseTo(0.95);
    expect(nameCoverage(['kerkstraat'], ['kerk', 'street'])).toBeGreaterThan(0.7);
  });

  it("reads a typed town word by word: a typo in a short name, half typed, not a neighbour's name", () => {
    const areaOf = (place: string) => place.toLowerCase().split(' ');
    // One typo in a short town's name: the town, not a longer one sharing its first letters.
    expect(areaCoverage(['vrude'], areaOf('Vrede Central Vrede'))).toBeGreaterThan(
      areaCoverage(['vrude'], areaOf('Vredendal Central Vredendal')),
    );
    expect(areaCoverage(['niegl'], areaOf('Nigel'))).toBeGreaterThan(0.7);
    expect(areaCoverage(['parl'], areaOf('Paarl Central Paarl'))).toBeGreaterThan(
      areaCoverage(['parl'], areaOf('Phola Park Cape Town')),
    );
    // Half typed: every town it starts equally (their importance orders them), none it does not start.
    expect(areaCoverage(['ali'], areaOf('Alice'))).toBe(areaCoverage(['ali'], areaOf('Aliwal North')));
    expect(areaCoverage(['ali'], areaOf('Allanridge'))).toBe(0);
    expect(areaCoverage(['durban'], areaOf('Morningside Durban'))).toBe(1);
  });

  it('costs a typed street type that is not the street’s, not one left out', () => {
    expect(streetTypeFactor('street', ['voortrekker', 'street'])).toBe(1);
    expect(streetTypeFactor('street', ['voortrekker', 'avenue'])).toBeLessThan(1);
    expect(streetTypeFactor(undefined, ['voortrekker', 'avenue'])).toBe(1);
    // Half typed ("stre") says nothing yet.
    expect(streetTypeFactor('stre', ['voortrekker', 'avenue'])).toBe(1);
  });

  const agreement = (fields: Partial<AddressAgreement>): AddressAgreement => ({
    numberTyped: true,
    exactNumber: false,
    sameNumber: false,
    gap: null,
    unitTyped: false,
    unitMatches: false,
    unitUntyped: false,
    postalTyped: false,
    postalMatches: false,
    ...fields,
  });

  it('ranks the exact number over the same number, over the nearest, over none', () => {
    const exact = agreementFactor(agreement({ exactNumber: true, sameNumber: true, gap: 0 }));
    const letter = agreementFactor(agreement({ sameNumber: true, gap: 0 }));
    const near = agreementFactor(agreement({ gap: 2 }));
    const far = agreementFactor(agreement({ gap: 40 }));
    const none = agreementFactor(agreement({}));
    expect(exact).toBe(1);
    expect([exact, letter, near, far, none]).toEqual(
      [...[exact, letter, near, far, none]].sort((a, b) => b - a),
    );
    expect(new Set([exact, letter, near, far, none]).size).toBe(5);
  });

  it('costs a differing unit or postal code', () => {
    const base = agreement({ exactNumber: true, sameNumber: true, gap: 0 });
    expect(agreementFactor({ ...base, unitTyped: true, unitMatches: false })).toBeLessThan(1);
    expect(agreementFactor({ ...base, postalTyped: true, postalMatches: false })).toBeLessThan(1);
    expect(agreementFactor({ ...base, postalTyped: true, postalMatches: true })).toBe(1);
  });
});
