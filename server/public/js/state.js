// The map page's one mutable state: the chosen index and month, the selection, request generations, layer features.

export const state = {
  index: "spei1",
  month: "",
  info: null,
  map: null,
  /** The selected place: { lat, lng, province?: { code, name }, feature?: { layer, properties, geometry } }. */
  selection: null,
  /** Generation of the panel's requests: an answer for an older selection or month is dropped. */
  panelGen: 0,
  detailGen: 0,
  /** While the hash is applied (back/forward, a pasted link), nothing is written back to it. */
  applyingHash: false,
  /** Each box layer's features as the API sent them, by featureKey (the map's own copies are tile-rounded). */
  features: {},
  /** Generation of each box layer's request: an answer for an older view is dropped. */
  boxGen: {},
  labels: [],
  countryLabels: new Map(),
  marker: null,
};
