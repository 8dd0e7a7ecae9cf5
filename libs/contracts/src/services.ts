import { Type, type Static } from '@sinclair/typebox';

export const ServiceConfig = Type.Object({
  country: Type.String(),
  centre: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
  zoom: Type.Number(),
});
export type ServiceConfig = Static<typeof ServiceConfig>;

/** A portal service (spec 03 §3 Service). */
export const Service = Type.Object({
  _id: Type.String(),
  identifier: Type.String(),
  name: Type.String(),
  description: Type.String(),
  url: Type.String(),
  image: Type.String(),
  active: Type.Boolean(),
  config: ServiceConfig,
});
export type Service = Static<typeof Service>;

export const ServicesAnswer = Type.Object({ success: Type.Boolean(), services: Type.Array(Service) });
export type ServicesAnswer = Static<typeof ServicesAnswer>;
