import type { DataSource } from 'typeorm';
import {
  IMAGERY_API,
  SURVEY_KINDS,
  type ObliqueCamera,
  type Orientation,
  type Survey,
  type SurveyBuilding,
} from '@portal/contracts';
import { BUILTIN_TILT_DEGREES, BUILTIN_VIEW_WIDTH_M, builtinCamera } from '@portal/domain';
import { HttpError, notFound, type Storage } from '@portal/server-kit';
import type { ImageryProviderConfig } from '../config';
import type { GeoPoint } from './location';
import { IMAGE_SIZES, renderJpeg, type ImageSize } from './render';
import { loadScene, pictureArea, sceneBox, sceneFingerprint } from './scene';
import {
  buildingChanges,
  notCovering,
  parcelAt,
  standingBuildings,
  surveyCovering,
  surveysAt,
  type BuildingChanges,
} from './surveys';

export interface Coverage {
  /** High-resolution (oblique and ortho) imagery exists at the location. */
  covered: boolean;
  /** Ortho imagery exists (inside ortho or high-resolution coverage). */
  ortho: boolean;
  /** The capture date of the newest survey at the location (null: none known). */
  capturedOn: string | null;
}

/** A picture: where to get it, the survey it comes from (null: the service named none) and its camera. */
export interface ImageAnswer {
  url: string;
  survey: Survey | null;
  camera: ObliqueCamera;
}

export interface SurveyChanges extends BuildingChanges {
  from: Survey;
  to: Survey;
}

/**
 * Where imagery comes from (ARCHITECTURE §5): the built-in renderer or a real imagery service. Imagery
 * comes in surveys (issue 21); every call that shows a picture answers from the newest survey at the point
 * unless one is named, and a named survey that does not cover the point is a 404.
 */
export interface ImageryProvider {
  coverage(point: GeoPoint): Promise<Coverage>;
  /** The surveys covering the point, newest first (empty outside coverage). */
  surveys(point: GeoPoint): Promise<Survey[]>;
  /**
   * The picture of the location seen from `orientation`, or null when there is none: obliques (n, e, s,
   * w) need a high-resolution survey, the ortho (o) any. `surveyId` picks the survey (a 404 when it does
   * not cover the point); without it the newest that has the view.
   */
  imageUrl(
    point: GeoPoint,
    orientation: Orientation,
    size: ImageSize,
    surveyId?: number,
  ): Promise<ImageAnswer | null>;
  /** The buildings on the point's parcel added, removed or changed in area between two surveys. */
  changes(point: GeoPoint, fromId: number, toId: number): Promise<SurveyChanges>;
  /**
   * The footprints standing at the survey's capture date (the newest at the point without one) around
   * the point (the pictures' ground), or on its parcel only.
   */
  buildings(
    point: GeoPoint,
    surveyId: number | undefined,
    parcelOnly: boolean,
  ): Promise<{ survey: Survey; buildings: SurveyBuilding[] }>;
}

/** Whether coverage allows an image from `orientation`. */
export const hasImagery = (coverage: Coverage, orientation: Orientation) =>
  orientation === 'o' ? coverage.ortho : coverage.covered;

/** Coverage from the surveys at a point (newest first): high-resolution implies ortho. */
export const coverageOf = (surveys: Survey[]): Coverage => ({
  covered: surveys.some((survey) => survey.kind === 'high_resolution'),
  ortho: surveys.length > 0,
  capturedOn: surveys[0]?.capturedOn ?? null,
});

/** Whether a survey has the view: obliques come from high-resolution flights only. */
export const surveyHasView = (survey: Survey, orientation: Orientation) =>
  orientation === 'o' || survey.kind === 'high_resolution';

/** The newest survey (of a newest-first list) that has the view. */
export const newestWithView = (surveys: Survey[], orientation: Orientation) =>
  surveys.find((survey) => surveyHasView(survey, orientation)) ?? null;

/** Images are keyed by the location to 5 decimals (~1 m): nearby clicks share their pictures. */
export const roundedLocation = ({ lat, lng }: GeoPoint): GeoPoint => ({
  lat: Number(lat.toFixed(5)),
  lng: Number(lng.toFixed(5)),
});

/**
 * What both providers share: the buildings' dates are the portal's own (geo.buildings), so changes and
 * standing buildings are read from PostGIS at the capture dates of whichever surveys the provider lists.
 */
abstract class SurveyedProvider implements ImageryProvider {
  constructor(protected readonly ds: DataSource) {}

  abstract coverage(point: GeoPoint): Promise<Coverage>;
  abstract surveys(point: GeoPoint): Promise<Survey[]>;
  abstract imageUrl(
    point: GeoPoint,
    orientation: Orientation,
    size: ImageSize,
    surveyId?: number,
  ): Promise<ImageAnswer | null>;

  /** The survey `id` if it covers the point, else a 404 saying which surveys do. */
  protected async surveyAt(point: GeoPoint, id: number): Promise<Survey> {
    const here = await this.surveys(point);
    const survey = here.find((candidate) => candidate.id === id);
    if (!survey) throw notCovering(id, point, here);
    return survey;
  }

  async changes(point: GeoPoint, fromId: number, toId: number): Promise<SurveyChanges> {
    const from = await this.surveyAt(point, fromId);
    const to = fromId === toId ? from : await this.surveyAt(point, toId);
    return { from, to, ...(await buildingChanges(this.ds, point, from.capturedOn, to.capturedOn)) };
  }

  async buildings(point: GeoPoint, surveyId: number | undefined, parcelOnly: boolean) {
    let survey: Survey | null;
    if (surveyId === undefined) {
      survey = (await this.surveys(point))[0] ?? null;
      if (!survey) throw notFound(`No imagery survey covers ${point.lat}, ${point.lng}.`);
    } else survey = await this.surveyAt(point, surveyId);
    if (!parcelOnly)
      return {
        survey,
        buildings: await standingBuildings(this.ds, survey.capturedOn, { box: sceneBox(point) }),
      };
    const parcelId = await parcelAt(this.ds, point);
    return {
      survey,
      buildings: parcelId === null ? [] : await standingBuildings(this.ds, survey.capturedOn, { parcelId }),
    };
  }
}

/**
 * Renders the views from the parcels, streets and buildings in PostGIS as they stood at the survey's
 * capture date, and keeps them in storage under
 * `idan/<lat>_<lng>/<orientation>-<size>-s<survey id>-<scene fingerprint>.jpg`: the same location over the
 * same data is rendered once; new data around it makes a new key (old images stay until the store is
 * pruned).
 */
export class BuiltinImageryProvider extends SurveyedProvider {
  private readonly rendering = new Map<string, Promise<void>>();

  constructor(
    ds: DataSource,
    private readonly storage: Storage,
  ) {
    super(ds);
  }

  async coverage(point: GeoPoint): Promise<Coverage> {
    return coverageOf(await this.surveys(point));
  }

  surveys(point: GeoPoint): Promise<Survey[]> {
    return surveysAt(this.ds, point);
  }

  /** Tells a survey that does not exist from one that does not cover the point. */
  protected override surveyAt(point: GeoPoint, id: number): Promise<Survey> {
    return surveyCovering(this.ds, id, point);
  }

  async imageUrl(
    point: GeoPoint,
    orientation: Orientation,
    size: ImageSize,
    surveyId?: number,
  ): Promise<ImageAnswer | null> {
    const survey =
      surveyId === undefined
        ? newestWithView(await this.surveys(point), orientation)
        : await this.surveyAt(point, surveyId);
    if (!survey || !surveyHasView(survey, orientation)) return null;
    const centre = roundedLocation(point);
    // The fingerprint alone finds a stored picture; the scene is read only to draw a new one.
    const { fingerprint } = await sceneFingerprint(this.ds, pictureArea(centre), survey);
    const key = `idan/${centre.lat.toFixed(5)}_${centre.lng.toFixed(5)}/${orientation}-${size}-s${survey.id}-${fingerprint}.jpg`;
    if (!(await this.storage.exists(key))) {
      // Two requests for one picture (the full and small URL calls often arrive together for a view)
      // share one rendering.
      let pending = this.rendering.get(key);
      if (!pending) {
        pending = loadScene(this.ds, centre, survey)
          .then((scene) => renderJpeg(scene, orientation, size))
          .then((jpeg) => this.storage.put(key, jpeg, { contentType: 'image/jpeg' }))
          .then(() => undefined)
          .finally(() => this.rendering.delete(key));
        this.rendering.set(key, pending);
      }
      await pending;
    }
    const { width, height } = IMAGE_SIZES[size];
    return { url: `${IMAGERY_API.images}${key}`, survey, camera: builtinCamera(orientation, width, height) };
  }
}

/** How long the template provider waits for the imagery service's coverage or surveys answer. */
export const COVERAGE_TIMEOUT_MS = 5000;
/** The provider named on surveys the imagery service lists without one. */
export const TEMPLATE_PROVIDER_NAME = 'Imagery service';

type TemplateConfig = Extract<ImageryProviderConfig, { kind: 'template' }>;

/**
 * Points at a real imagery service: URLs are filled from templates ({lat}, {lng}, {orientation},
 * {survey}, {capturedOn}); coverage comes from the service's coverage template when set and the surveys
 * from its surveys template, else both from the polygons in PostGIS. Its camera is the configured one
 * (IMAGERY_CAMERA_*), the built-in's where unset.
 */
export class TemplateImageryProvider extends SurveyedProvider {
  constructor(
    ds: DataSource,
    private readonly config: TemplateConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    super(ds);
  }

  async coverage(point: GeoPoint): Promise<Coverage> {
    const template = this.config.coverageUrlTemplate;
    if (!template) return coverageOf(await this.surveys(point));
    const answer = await this.fetchJson(fillTemplate(template, point), 'coverage');
    const { covered, ortho, capturedOn } = (answer ?? {}) as Record<string, unknown>;
    if (typeof covered !== 'boolean' || typeof ortho !== 'boolean')
      throw new HttpError(502, `The imagery service's coverage answer has no covered/ortho flags.`);
    return {
      covered,
      ortho: ortho || covered,
      capturedOn:
        typeof capturedOn === 'string' ? capturedOn : ((await this.surveys(point))[0]?.capturedOn ?? null),
    };
  }

  async surveys(point: GeoPoint): Promise<Survey[]> {
    const template = this.config.surveysUrlTemplate;
    if (!template) return surveysAt(this.ds, point);
    const answer = await this.fetchJson(fillTemplate(template, point), 'surveys');
    return parseServiceSurveys(answer);
  }

  /** Surveys from PostGIS: tells a survey that does not exist from one that does not cover the point. */
  protected override surveyAt(point: GeoPoint, id: number): Promise<Survey> {
    return this.config.surveysUrlTemplate ? super.surveyAt(point, id) : surveyCovering(this.ds, id, point);
  }

  async imageUrl(
    point: GeoPoint,
    orientation: Orientation,
    size: ImageSize,
    surveyId?: number,
  ): Promise<ImageAnswer | null> {
    if (!hasImagery(await this.coverage(point), orientation)) return null;
    // The service decides coverage; the survey is the one named, else the newest it lists with the view
    // (none when it lists none: the URL is the service's latest picture).
    const survey =
      surveyId === undefined
        ? newestWithView(await this.surveys(point), orientation)
        : await this.surveyAt(point, surveyId);
    if (survey && !surveyHasView(survey, orientation)) return null;
    const template = size === 'small' ? this.config.smallImageUrlTemplate : this.config.imageUrlTemplate;
    return {
      url: fillTemplate(template, point, orientation, survey),
      survey,
      camera: this.camera(orientation, size),
    };
  }

  /** The configured camera, the built-in's where a part is unset. */
  camera(orientation: Orientation, size: ImageSize): ObliqueCamera {
    const configured = this.config.camera ?? {};
    const pixels = (size === 'small' ? configured.smallPx : configured.fullPx) ?? IMAGE_SIZES[size];
    const camera = builtinCamera(orientation, pixels.width, pixels.height);
    return {
      ...camera,
      metresAcross: configured.metresAcross ?? BUILTIN_VIEW_WIDTH_M,
      tiltDegrees: orientation === 'o' ? 90 : (configured.tiltDegrees ?? BUILTIN_TILT_DEGREES),
    };
  }

  private async fetchJson(url: string, what: string): Promise<unknown> {
    try {
      const response = await this.fetchImpl(url, {
        signal: AbortSignal.timeout(COVERAGE_TIMEOUT_MS),
        headers: { accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      return await response.json();
    } catch (error) {
      throw new HttpError(502, `The imagery service's ${what} call failed: ${(error as Error).message}`);
    }
  }
}

/** The imagery service's `{ surveys: [...] }` as surveys, newest first; a 502 when it is malformed. */
export function parseServiceSurveys(answer: unknown): Survey[] {
  const list = (answer as { surveys?: unknown } | null)?.surveys;
  if (!Array.isArray(list))
    throw new HttpError(502, `The imagery service's surveys answer has no surveys list.`);
  const surveys = list.map((item: unknown, index): Survey => {
    const { id, capturedOn, kind, provider, name } = (item ?? {}) as Record<string, unknown>;
    if (
      !Number.isInteger(id) ||
      (id as number) < 1 ||
      typeof capturedOn !== 'string' ||
      !/^\d{4}-\d{2}-\d{2}$/.test(capturedOn) ||
      !(SURVEY_KINDS as readonly unknown[]).includes(kind)
    )
      throw new HttpError(
        502,
        `The imagery service's survey ${index + 1} needs an id (a whole number), capturedOn (YYYY-MM-DD) and a kind (${SURVEY_KINDS.join(', ')}).`,
      );
    return {
      id: id as number,
      capturedOn,
      kind: kind as Survey['kind'],
      provider: typeof provider === 'string' && provider ? provider : TEMPLATE_PROVIDER_NAME,
      ...(typeof name === 'string' && name ? { name } : {}),
    };
  });
  return surveys.sort((a, b) => b.capturedOn.localeCompare(a.capturedOn) || b.id - a.id);
}

/** Replaces {lat}, {lng}, {orientation}, {survey} and {capturedOn} in a URL template (values URL-encoded). */
export function fillTemplate(
  template: string,
  point: GeoPoint,
  orientation?: Orientation,
  survey?: Pick<Survey, 'id' | 'capturedOn'> | null,
): string {
  return template
    .replaceAll('{lat}', encodeURIComponent(String(point.lat)))
    .replaceAll('{lng}', encodeURIComponent(String(point.lng)))
    .replaceAll('{orientation}', encodeURIComponent(orientation ?? ''))
    .replaceAll('{survey}', encodeURIComponent(survey ? String(survey.id) : ''))
    .replaceAll('{capturedOn}', encodeURIComponent(survey?.capturedOn ?? ''));
}

export function createImageryProvider(
  config: ImageryProviderConfig,
  ds: DataSource,
  storage: Storage,
): ImageryProvider {
  return config.kind === 'template'
    ? new TemplateImageryProvider(ds, config)
    : new BuiltinImageryProvider(ds, storage);
}
