/** Spec 03 §9: the grids are 750 px high. */
export const SERVER_GRID_HEIGHT = 750;
/** Spec 03 'Loading error' state of a list that could not be read. */
export const GRID_LOADING_ERROR = 'Loading error';
