/**
 * ISO 3166-1 numeric codes of South Africa and the neighbours drawn around it for context:
 * South Africa, Lesotho, eSwatini, Namibia, Botswana, Zimbabwe, Mozambique. The offline map's outline
 * files (outlines/*.geojson, made by tools/southern-africa-outlines.mjs) hold exactly these.
 */
export const SOUTHERN_AFRICA_COUNTRY_IDS: ReadonlySet<number> = new Set([710, 426, 748, 516, 72, 716, 508]);

export const SOUTH_AFRICA_COUNTRY_ID = 710;

export interface CountryProperties {
  name: string;
  /** ISO 3166-1 numeric code as a number (world-atlas stores zero-padded strings such as "072"). */
  isoNumeric: number;
}
