import type { ChangesAnswer } from '@portal/contracts';
import type { FeatureLike } from 'ol/Feature';
import Fill from 'ol/style/Fill';
import Stroke from 'ol/style/Stroke';
import Style from 'ol/style/Style';
import { CHANGE_COLOURS } from './measureStyles';
import type { Outline } from './OutlineLayer';

export type ChangeKind = keyof typeof CHANGE_COLOURS;

/**
 * The outlines of the changes between two surveys: an added building's footprint at the later date, a
 * removed one's at the earlier, a changed (extended or reduced) one's at both (the earlier dashed).
 */
export function changeOutlines(changes: ChangesAnswer | null | undefined): Outline[] {
  if (!changes) return [];
  return [
    ...changes.added.map((change) => ({
      geometry: change.footprintTo,
      properties: { change: 'added', buildingId: change.buildingId },
    })),
    ...changes.removed.map((change) => ({
      geometry: change.footprintFrom,
      properties: { change: 'removed', buildingId: change.buildingId },
    })),
    ...changes.changed.flatMap((change) => [
      {
        geometry: change.footprintFrom,
        properties: { change: 'changed', before: true, buildingId: change.buildingId },
      },
      { geometry: change.footprintTo, properties: { change: 'changed', buildingId: change.buildingId } },
    ]),
  ].filter((outline) => outline.geometry);
}

const styles = Object.fromEntries(
  (Object.keys(CHANGE_COLOURS) as ChangeKind[]).map((kind) => [
    kind,
    {
      now: new Style({
        stroke: new Stroke({ color: CHANGE_COLOURS[kind], width: 3 }),
        fill: new Fill({ color: `${CHANGE_COLOURS[kind]}33` }),
      }),
      before: new Style({ stroke: new Stroke({ color: CHANGE_COLOURS[kind], width: 2, lineDash: [6, 4] }) }),
    },
  ]),
) as Record<ChangeKind, { now: Style; before: Style }>;

/** Added green, removed red, changed orange; a changed building's earlier footprint dashed. */
export function changeStyle(feature: FeatureLike): Style {
  const kind = (feature.get('change') as ChangeKind | undefined) ?? 'changed';
  return feature.get('before') ? styles[kind].before : styles[kind].now;
}
