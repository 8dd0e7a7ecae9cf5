export { PG_ERROR, pgErrorCode } from './errors';
export { containsPattern, escapeLike, SqlParameters } from './parameters';
export { joinedUuidSlice, KeptLists, type KeptList, type KeptListsOptions } from './kept-lists';
export { footprintOnSql, standingOnSql } from './building-life';
