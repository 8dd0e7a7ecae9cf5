import { REPORTBUILDER_API } from './reportBuilder';

const BASE = '/api/v1.0/reportbuilder';

/**
 * The report builder's routes as services/reportbuilder registers them (Fastify's `:param` spelling). These
 * are the keys libs/domain/src/routeAccess.ts looks a route up by, so a path here changes only with its entry
 * there; the screens build their URLs with REPORTBUILDER_API.
 */
export const REPORTBUILDER_ROUTES = {
  // The report (routes/reports.ts).
  sections: `${BASE}/sections/:requestID`,
  saveSections: REPORTBUILDER_API.saveSections,
  comments: REPORTBUILDER_API.comments,
  commentsOf: `${BASE}/requestComments/:requestID`,
  note: REPORTBUILDER_API.note,
  noteOf: `${BASE}/requestNote/:requestID`,
  details: `${BASE}/requestDetails/:requestID`,
  addressDetails: `${BASE}/requestReportAddressDetails/:requestID`,
  saveAddress: REPORTBUILDER_API.saveAddress,
  extraFieldIncluded: REPORTBUILDER_API.extraFieldIncluded,
  extraFieldDescription: REPORTBUILDER_API.extraFieldDescription,
  extraFieldValue: REPORTBUILDER_API.extraFieldValue,
  totals: `${BASE}/totals/:requestID`,
  versions: `${BASE}/versions/:requestID`,
  confirmFootprints: REPORTBUILDER_API.confirmFootprints,
  // The PDF (routes/pdf.ts).
  generate: `${BASE}/report/:requestID/savi/:country/:group/full`,
  ready: `${BASE}/report/:requestID/pdf/ready`,
  download: `${BASE}/savi/:requestID/download`,
  // The images (routes/images.ts).
  image: REPORTBUILDER_API.image,
  imageCrop: REPORTBUILDER_API.imageCrop,
  imageCopy: REPORTBUILDER_API.imageCopy,
  imageRearrange: REPORTBUILDER_API.imageRearrange,
  upload: REPORTBUILDER_API.upload,
  thumbnails: `${BASE}/image/thumbnails/:requestID`,
  imageExists: `${BASE}/image/:requestID/:type/:first/:second/:third`,
  imageInfo: `${BASE}/image/info/:requestID/:type/:first/:second/:third`,
  deleteSectionImage: `${BASE}/image/:requestID/:sectionID`,
  deleteBuildingImage: `${BASE}/image/:requestID/:sectionID/:buildingID`,
  uploadAsset: '/reportbuilder/assets/uploads/:requestID/:fileName',
} as const;
