/** The map's popups: the marker's (the parcel under it, add address, add POI), an address's and a POI's. */
export { AddressPopup, type AddressPopupProps } from './AddressPopup';
export { MarkerPopup, type MarkerPopupProps } from './MarkerPopup';
export { PoiPopup } from './PoiPopup';
export { PopupFrame } from './PopupFrame';
