// Writes small NetCDF-4 (HDF5) files with h5wasm: coordinate variables are HDF5 dimension scales attached to the
// data variables' dimensions, as the netCDF-4 library lays them out. The ERA5 refresh writes its merged file with it
// (pipeline/sources/era5-merge.ts); the tests write their fixtures with it.

export type H5Data = Float32Array | Float64Array | Int16Array | Int32Array | BigInt64Array;
export type H5Attr = string | Float32Array | Float64Array | Int16Array | Int32Array;

export interface H5Variable {
  name: string;
  dims: string[];
  data: H5Data | string[];
  attrs?: Record<string, H5Attr>;
  /** Deflate level (chunked one time step at a time, as the CDS writes its files); none when absent. */
  deflate?: number;
}

export interface H5File {
  /** Coordinate variables (1-D, named like their dimension), written first and made dimension scales. */
  coords: { name: string; data: H5Data; attrs?: Record<string, H5Attr> }[];
  variables: H5Variable[];
  globalAttrs?: Record<string, H5Attr>;
}

export async function writeNetcdf4(path: string, spec: H5File): Promise<void> {
  // Loaded here, not at import: the 4 MB HDF5 module costs seconds to import (pipeline/inputs/netcdf/open.ts).
  const { default: h5wasm } = await import("h5wasm/node");
  await h5wasm.ready;
  const f = new h5wasm.File(path, "w");
  try {
    for (const [k, v] of Object.entries(spec.globalAttrs ?? {})) f.create_attribute(k, v);
    const sizes = new Map<string, number>();
    for (const c of spec.coords) {
      const d = f.create_dataset({ name: c.name, data: c.data, shape: [c.data.length] });
      for (const [k, v] of Object.entries(c.attrs ?? {})) d.create_attribute(k, v);
      d.make_scale(c.name);
      sizes.set(c.name, c.data.length);
    }
    for (const v of spec.variables) {
      const shape = v.dims.map((dim) => sizes.get(dim) ?? 0);
      const compression = v.deflate === undefined || shape.length === 0
        ? {}
        : { chunks: shape.map((n, i) => (i === 0 && shape.length > 1 ? 1 : Math.max(n, 1))), compression: v.deflate };
      const d = f.create_dataset({ name: v.name, data: v.data, shape, ...compression });
      for (const [k, a] of Object.entries(v.attrs ?? {})) d.create_attribute(k, a);
      v.dims.forEach((dim, i) => {
        if (sizes.has(dim)) d.attach_scale(i, `/${dim}`);
      });
    }
  } finally {
    f.close();
  }
}
