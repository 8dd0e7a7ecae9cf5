/**
 * The locator remote's behaviour constants: how long it waits, how often it retries, how much it reads and
 * shows. The numbers the spec gives are marked with their section; the others are ours. Texts are in
 * texts.ts.
 */

// ---- The request tool (/savi) ----

/** Spec 01 §4: after the picture-view toggle the map is resized at these delays (ms). */
export const MAP_RESIZE_DELAYS_MS = [500, 750, 1000, 1500] as const;

/** Spec 01 §9: the oblique viewer's zoom. */
export const VIEWER_ZOOM = { step: 0.2, min: 0.2, max: 4 } as const;

/** Spec 01 §9: search and render retry up to 5 times. */
export const IMAGERY_RETRIES = 5;

// ---- Address validation and can't-locate (/avs) ----

/** Pauses before the second and third try of a failing chunk of a CSV batch. */
export const CHUNK_RETRY_DELAYS_MS = [1000, 3000] as const;

/** Largest file read (a list of 20 000 addresses is about 1.5 MB). */
export const MAX_FILE_MEGABYTES = 5;

/** Most rows validated from one file (200 calls of 100). */
export const MAX_ROWS = 20_000;

/** Rows of a batch shown on screen; the download has them all. */
export const PREVIEW_ROWS = 10;

/** Longest address and comments the can't-locate form takes (the request's query and additional fields). */
export const MAX_ADDRESS_LENGTH = 500;
export const MAX_COMMENTS_LENGTH = 4000;

// ---- The mapping service (/spatialkey) ----

/** Points asked for per look; clustered on the map, so a few thousand stay readable and quick. */
export const MAP_POINT_LIMIT = 2000;

/** How long the map must rest before its new box is asked for (panning fires many moves). */
export const BOX_DEBOUNCE_MS = 400;

/** Points closer than this (pixels) are drawn as one cluster with their count. */
export const CLUSTER_DISTANCE_PX = 40;

/** From this zoom a cluster's requests are listed instead of zoomed into (they share a property). */
export const LIST_FROM_ZOOM = 17;
