/** The remote's page (spec 03 §2 "Address editor"; the route is issue 14's). */
export const PATHS = {
  editor: '/avs/editor',
} as const;

/** The editor at a point: the URL keeps the marker, so a reload or a shared link opens the same place. */
export const editorHref = (point: { lat: number; lng: number }) =>
  `${PATHS.editor}/?${new URLSearchParams({ lat: point.lat.toFixed(6), lng: point.lng.toFixed(6) })}`;
