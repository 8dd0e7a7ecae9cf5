/** How each kind of suburb is laid out: road width, erf depth and frontage, block length, estates, storeys. */
import { type SuburbStyle } from '../names';

export interface StyleParameters {
  road: number;
  depth: [number, number];
  frontage: [number, number];
  block: [number, number];
  estateChance: number;
  twoStoreyChance: number;
}

export const STYLES: Record<SuburbStyle, StyleParameters> = {
  central: {
    road: 16,
    depth: [28, 40],
    frontage: [15, 22],
    block: [100, 160],
    estateChance: 0.02,
    twoStoreyChance: 0.4,
  },
  suburban: {
    road: 13,
    depth: [34, 48],
    frontage: [20, 30],
    block: [160, 260],
    estateChance: 0.09,
    twoStoreyChance: 0.25,
  },
  residential: {
    road: 12,
    depth: [28, 38],
    frontage: [15, 22],
    block: [130, 220],
    estateChance: 0.04,
    twoStoreyChance: 0.15,
  },
  township: {
    road: 10,
    depth: [18, 24],
    frontage: [10, 14],
    block: [100, 180],
    estateChance: 0,
    twoStoreyChance: 0.03,
  },
};
