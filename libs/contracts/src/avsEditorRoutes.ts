import { AVS_EDITOR_API } from './avsEditor';

const EDITOR = '/api/v1.0/addresseditor';
const ADD = '/api/v1.0/addaddress';

/**
 * The address editor's routes as services/avs-editor registers them (Fastify's `:param` spelling). These
 * are the keys libs/domain/src/routeAccess.ts looks a route up by, so a path here changes only with its entry
 * there; the screens build their URLs with AVS_EDITOR_API.
 */
export const AVS_EDITOR_ROUTES = {
  displayData: `${EDITOR}/display_data/:lat/:lng`,
  pointData: `${ADD}/get_point_data/:lat/:lng`,
  settings: AVS_EDITOR_API.settings,
  edits: `${EDITOR}/parcel/:id/edits`,
  multiParcel: AVS_EDITOR_API.multiParcel,
  noAddressParcel: AVS_EDITOR_API.noAddressParcel,
  dequeueValidateParcel: AVS_EDITOR_API.dequeueValidateParcel,
  cantLocate: AVS_EDITOR_API.cantLocate,
  release: AVS_EDITOR_API.release,
  official: `${EDITOR}/address/:id/official`,
  accept: `${EDITOR}/address/:id/accept`,
  reject: `${EDITOR}/address/:id/reject`,
  addAddress: AVS_EDITOR_API.addAddress,
  addPoi: AVS_EDITOR_API.addPoi,
  detachPoi: `${EDITOR}/poi/:id/detach`,
  investigate: `${EDITOR}/parcel/:id/investigate`,
  unaddressable: `${EDITOR}/parcel/:id/unaddressable`,
  reviewed: `${EDITOR}/parcel/:id/reviewed`,
  validateParcel: `${EDITOR}/parcel/:id/validate`,
  resolveCantLocate: `${EDITOR}/cant_locate/:id/resolve`,
} as const;
