"""Reads every MVT tile under a z/x/y.pbf tree with GDAL's MVT driver and checks each geometry with GEOS
(OGR IsValid). Prints one JSON object: tiles, features, polygons, and the invalid features (tile, layer, name).
Used by test/tiles/gdal.test.ts; needs Debian's python3-gdal (pulled in by gdal-bin)."""
import json
import os
import sys

from osgeo import gdal, ogr

gdal.UseExceptions()
root = sys.argv[1]
out = {"gdal": gdal.__version__, "tiles": 0, "features": 0, "polygons": 0, "invalid": []}
for z in sorted(os.listdir(root)):
    for x in sorted(os.listdir(os.path.join(root, z))):
        for name in sorted(os.listdir(os.path.join(root, z, x))):
            path = os.path.join(root, z, x, name)
            # The path z/x/y.pbf gives GDAL the tile's position (EPSG:3857 coordinates).
            ds = ogr.Open(path)
            if ds is None:
                out["invalid"].append({"tile": f"{z}/{x}/{name}", "layer": None, "name": "GDAL cannot open the tile"})
                continue
            out["tiles"] += 1
            for li in range(ds.GetLayerCount()):
                layer = ds.GetLayer(li)
                for f in layer:
                    out["features"] += 1
                    g = f.GetGeometryRef()
                    if g is None:
                        continue
                    if "POLYGON" in g.GetGeometryName():
                        out["polygons"] += 1
                    if not g.IsValid():
                        idx = f.GetFieldIndex("nameEn")
                        if idx < 0:
                            idx = f.GetFieldIndex("name")
                        label = f.GetFieldAsString(idx) if idx >= 0 else str(f.GetFID())
                        out["invalid"].append({"tile": f"{z}/{x}/{name[:-4]}", "layer": layer.GetName(), "name": label})
print(json.dumps(out))
