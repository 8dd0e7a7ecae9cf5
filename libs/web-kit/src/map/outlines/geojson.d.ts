/** A `.geojson` file imported by a module is emitted as a content-hashed asset: the import is its URL. */
declare module '*.geojson' {
  const url: string;
  export default url;
}
